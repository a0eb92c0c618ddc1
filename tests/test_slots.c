/* The compile slots a list's GPU workers share (runtime/driver/
 * compile_slots.c): never more compiles at once than slots, a slot a dead
 * process held freed with it, and a descriptor that is not the list's
 * memory file never taken for one. No GPU. */
#include "tap.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "runtime/driver/driver.h"

static atomic_int held, most;

static void *compile_like(void *arg)
{
    at_slot s;
    if (!at_slot_open(&s))
        return (void *)1;
    for (int round = 0; round < 5; ++round) {
        at_slot_take(&s, (int)(intptr_t)arg);
        int now = atomic_fetch_add(&held, 1) + 1;
        for (int m = atomic_load(&most); now > m &&
             !atomic_compare_exchange_weak(&most, &m, now);)
            ;
        usleep(10000);
        atomic_fetch_sub(&held, 1);
        at_slot_give(&s);
    }
    at_slot_close(&s);
    return NULL;
}

static void no_more_at_once_than_slots(void **state)
{
    (void)state;
    at_err e = {0};
    assert_int_equal(at_slots_share(2, &e), 0);
    pthread_t t[6];
    for (intptr_t i = 0; i < 6; ++i)
        assert_int_equal(pthread_create(&t[i], NULL, compile_like,
                                        (void *)i), 0);
    for (int i = 0; i < 6; ++i) {
        void *r;
        pthread_join(t[i], &r);
        assert_null(r);
    }
    printf("# at most %d of 6 threads compiled at once with 2 slots\n",
           atomic_load(&most));
    assert_int_equal(atomic_load(&most), 2);
}

static void a_dead_holder_frees_its_slot(void **state)
{
    (void)state;
    at_err e = {0};
    assert_int_equal(at_slots_share(1, &e), 0);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0) {
        at_slot s;
        if (!at_slot_open(&s))
            _exit(1);
        at_slot_take(&s, 0);
        (void)!write(ready[1], "x", 1);
        pause(); /* killed holding it */
        _exit(0);
    }
    char x;
    assert_int_equal(read(ready[0], &x, 1), 1);
    at_slot s;
    assert_int_equal(at_slot_open(&s), 1);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    double t0 = at_now_s();
    at_slot_take(&s, 0);
    assert_true(s.held == 0);
    assert_true(at_now_s() - t0 < 1.0);
    at_slot_close(&s);
}

static void another_descriptor_is_no_slot(void **state)
{
    (void)state;
    char path[] = "/tmp/at-slots-XXXXXX", v[32];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    snprintf(v, sizeof v, "%d:4", fd);
    setenv("AUTOTUNE_COMPILE_SLOTS", v, 1);
    at_slot s;
    assert_int_equal(at_slot_open(&s), 0);
    at_slot_take(&s, 0); /* free: nothing to wait for */
    at_slot_close(&s);
    setenv("AUTOTUNE_COMPILE_SLOTS", "garbage", 1);
    assert_int_equal(at_slot_open(&s), 0);
    unsetenv("AUTOTUNE_COMPILE_SLOTS");
    assert_int_equal(at_slot_open(&s), 0);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_more_at_once_than_slots),
        cmocka_unit_test(a_dead_holder_frees_its_slot),
        cmocka_unit_test(another_descriptor_is_no_slot),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
