#include "runtime/plan/device_counts.h"

static int slot(int device)
{
    return device >= 0 && device < AT_COUNTED_DEVICES ? device : 0;
}

void at_device_count_wait(at_device_counts *c, int device, int add)
{
    int *n = &c->n[slot(device)];
    pthread_mutex_lock(&c->mu);
    while (*n > 0)
        pthread_cond_wait(&c->zero, &c->mu);
    *n += add;
    pthread_mutex_unlock(&c->mu);
}

void at_device_count_add(at_device_counts *c, int device, int add)
{
    pthread_mutex_lock(&c->mu);
    c->n[slot(device)] += add;
    pthread_cond_broadcast(&c->zero);
    pthread_mutex_unlock(&c->mu);
}
