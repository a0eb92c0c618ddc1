/* A list shared by hosts through a PostgreSQL store's jobs table
 * (runtime/store/pg_jobs.c), against the throwaway server tests/store.sh
 * starts: processes as hosts take one list, each job done once, one host
 * killed in the middle of a job and its job taken again once its lease
 * ran out (and not before); a renewed lease keeps a long job its host's;
 * a job whose hosts keep dying fails after AT_JOB_TRIES takes; a file
 * cache is refused. No GPU: a host's "tune" is a sleep. */
#include "tap.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "runtime/store/pq.h"
#include "runtime/store/store.h"

enum { JOBS = 40, HOSTS = 6, LONG_JOB = 5 };
#define LEASE_S 1.0
static char uri[1024];
static char dir[] = "/tmp/at-jobs-XXXXXX";

static int no_server(void)
{
    if (uri[0])
        return 0;
    printf("# not run: no AUTOTUNE_TEST_PG (tests/store.sh starts a "
           "server)\n");
    return 1;
}

static void key_of(at_key *k, int i)
{
    memset(k, 0, sizeof *k);
    snprintf(k->gpu, sizeof k->gpu, "NVIDIA H100 80GB HBM3");
    k->cc = 90;
    k->sms = 132;
    snprintf(k->family, sizeof k->family, "transpose");
    snprintf(k->type, sizeof k->type, "f32");
    snprintf(k->problem, sizeof k->problem, "rows=%d cols=4096", 1000 + i);
}

/* A fresh jobs table, and the list's ids. */
static void fresh(char (*ids)[17], int n)
{
    at_cache *c = NULL;
    at_err e = {0};
    if (at_cache_open(&c, uri, &e))
        fail_msg("open: %s", e.msg);
    size_t a, b;
    assert_int_equal(at_cache_clear(c, &a, &b, &e), 0);
    at_cache_close(c);
    for (int i = 0; i < n; ++i) {
        at_key k;
        key_of(&k, i);
        at_job_id(&k, ids[i]);
    }
}

static at_jobs *jobs_open(const char *owner, double lease_s)
{
    at_cache *c = NULL;
    at_jobs *j = NULL;
    at_err e = {0};
    if (at_cache_open(&c, uri, &e) || at_jobs_open(&j, c, owner, lease_s, &e))
        fail_msg("jobs: %s", e.msg);
    at_cache_close(c);
    return j;
}

/* A host: adds the list, takes jobs until none is left to take, then
 * waits for the others' (a dead host's job comes back when its lease
 * runs out). Host 0 is killed in the middle of its first job; host 1's
 * first job outlasts the lease, renewed. Each take is a line of log. */
static int host(int id, const char *log)
{
    char owner[64], (*ids)[17] = calloc(JOBS, 17);
    snprintf(owner, sizeof owner, "host%d", id);
    at_jobs *j = jobs_open(owner, LEASE_S);
    at_err e = {0};
    int fd = open(log, O_WRONLY | O_APPEND), taken = 0;
    for (int i = 0; i < JOBS; ++i) {
        at_key k;
        key_of(&k, i);
        if (at_jobs_add(j, &k, k.problem, ids[i], &e))
            return 10;
    }
    for (;;) {
        int which, tries, st[JOBS], open_jobs = 0;
        int got = at_jobs_take(j, ids, JOBS, &which, &tries, &e);
        if (got < 0)
            return 11;
        if (got) {
            char line[96];
            int n = snprintf(line, sizeof line, "%s %d %d %.3f\n",
                             ids[which], id, tries, at_now_s());
            if (write(fd, line, (size_t)n) != n)
                return 12;
            if (id == 0 && taken == 0)
                raise(SIGKILL); /* dies holding the job */
            double hold = id == 1 && taken == 0 ? LONG_JOB * LEASE_S : 0.03;
            for (double t0 = at_now_s(); at_now_s() - t0 < hold;) {
                usleep(100000);
                if (at_jobs_renew(j, &e))
                    return 13;
            }
            ++taken;
            if (at_jobs_finish(j, ids[which], NULL, &e))
                return 14;
            continue;
        }
        if (at_jobs_states(j, ids, JOBS, st, NULL, NULL, &e))
            return 15;
        for (int i = 0; i < JOBS; ++i)
            open_jobs += st[i] == AT_JOB_QUEUED || st[i] == AT_JOB_RUNNING;
        if (!open_jobs)
            break;
        usleep(50000);
    }
    at_jobs_close(j);
    close(fd);
    free(ids);
    return 0;
}

static void hosts_take_one_list_each_job_once(void **state)
{
    (void)state;
    if (no_server())
        return;
    char ids[JOBS][17], log[1100];
    fresh(ids, JOBS);
    snprintf(log, sizeof log, "%s/takes.log", dir);
    close(open(log, O_CREAT | O_TRUNC | O_WRONLY, 0600));
    pid_t pids[HOSTS];
    for (int i = 0; i < HOSTS; ++i)
        if ((pids[i] = fork()) == 0)
            _exit(host(i, log));
    for (int i = 0; i < HOSTS; ++i) {
        int status = 0;
        waitpid(pids[i], &status, 0);
        if (i == 0)
            assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("host %d: status %d", i, status);
    }
    /* Every take: each job once, the dead host's twice (the second after
     * its lease ran out), the long job once (its lease renewed). */
    FILE *f = fopen(log, "r");
    char id[17];
    int h, tries, takes[JOBS] = {0}, by[HOSTS] = {0}, dead = -1;
    double at, dead_at = 0, again_at = 0;
    while (fscanf(f, "%16s %d %d %lf", id, &h, &tries, &at) == 4) {
        int i = 0;
        while (i < JOBS && strcmp(ids[i], id) != 0)
            ++i;
        assert_true(i < JOBS && h >= 0 && h < HOSTS);
        ++takes[i];
        ++by[h];
        if (h == 0)
            dead = i, dead_at = at;
        else if (i == dead)
            again_at = at;
    }
    fclose(f);
    assert_true(dead >= 0);
    int hosts_used = 0;
    for (int i = 0; i < JOBS; ++i)
        assert_int_equal(takes[i], i == dead ? 2 : 1);
    for (int i = 0; i < HOSTS; ++i)
        hosts_used += by[i] > 0;
    printf("# %d jobs over %d hosts; the dead host's job taken again %.2f s "
           "after (lease %.1f s)\n", JOBS, hosts_used, again_at - dead_at,
           LEASE_S);
    assert_true(hosts_used >= 3);
    assert_true(again_at - dead_at >= LEASE_S * 0.9);
    at_jobs *j = jobs_open("reader", LEASE_S);
    int st[JOBS];
    at_err e = {0};
    assert_int_equal(at_jobs_states(j, ids, JOBS, st, NULL, NULL, &e), 0);
    for (int i = 0; i < JOBS; ++i)
        assert_int_equal(st[i], AT_JOB_DONE);
    at_jobs_close(j);
}

static void a_job_whose_hosts_keep_dying_fails(void **state)
{
    (void)state;
    if (no_server())
        return;
    char ids[1][17], owner[1][64], error[1][320];
    fresh(ids, 1);
    at_key k;
    key_of(&k, 0);
    at_err e = {0};
    int which, tries = 0, st;
    at_jobs *j = jobs_open("adder", 0.2);
    char id[17];
    assert_int_equal(at_jobs_add(j, &k, k.problem, id, &e), 0);
    assert_string_equal(id, ids[0]); /* at_job_id's name */
    at_jobs_close(j);
    for (int t = 1; t <= AT_JOB_TRIES; ++t) {
        char name[16];
        snprintf(name, sizeof name, "doomed%d", t);
        j = jobs_open(name, 0.2);
        assert_int_equal(at_jobs_take(j, ids, 1, &which, &tries, &e), 1);
        assert_int_equal(tries, t);
        /* Not another's while the lease holds. */
        at_jobs *other = jobs_open("other", 0.2);
        assert_int_equal(at_jobs_take(other, ids, 1, &which, &tries, &e), 0);
        /* A finish by one that does not hold it changes nothing. */
        assert_int_equal(at_jobs_finish(other, ids[0], NULL, &e), 0);
        assert_int_equal(at_jobs_states(other, ids, 1, &st, owner, NULL, &e),
                         0);
        assert_int_equal(st, AT_JOB_RUNNING);
        assert_string_equal(owner[0], name);
        at_jobs_close(other);
        at_jobs_close(j); /* "dies" */
        usleep(300000);
    }
    j = jobs_open("last", 0.2);
    assert_int_equal(at_jobs_take(j, ids, 1, &which, &tries, &e), 0);
    assert_int_equal(at_jobs_states(j, ids, 1, &st, NULL, error, &e), 0);
    assert_int_equal(st, AT_JOB_FAILED);
    assert_non_null(strstr(error[0], "taken 3 times"));
    at_jobs_close(j);
}

static void a_file_cache_shares_no_list(void **state)
{
    (void)state;
    char path[1100];
    snprintf(path, sizeof path, "%s/cache.db", dir);
    at_cache *c = NULL;
    at_jobs *j = NULL;
    at_err e = {0};
    assert_int_equal(at_cache_open(&c, path, &e), 0);
    assert_int_equal(at_jobs_open(&j, c, "me", 1, &e), AUTOTUNE_EINVALID);
    assert_null(j);
    assert_non_null(strstr(e.msg, "needs a PostgreSQL store"));
    at_cache_close(c);
}

static int group_setup(void **state)
{
    (void)state;
    const char *pg = getenv("AUTOTUNE_TEST_PG");
    snprintf(uri, sizeof uri, "%s", pg ? pg : "");
    return mkdtemp(dir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    return at_tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hosts_take_one_list_each_job_once),
        cmocka_unit_test(a_job_whose_hosts_keep_dying_fails),
        cmocka_unit_test(a_file_cache_shares_no_list),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
