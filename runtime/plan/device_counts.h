/* A count per device under one lock, with a wait for a device's count to
 * be zero: plan.c's one tune at a time on a device, gpu_worker.c's
 * workers of a device still being reaped. Devices are ordinals as
 * --device takes them; one out of range counts as device 0. */
#ifndef AT_DEVICE_COUNTS_H
#define AT_DEVICE_COUNTS_H

#include <pthread.h>

enum { AT_COUNTED_DEVICES = 1024 };

typedef struct at_device_counts {
    pthread_mutex_t mu;
    pthread_cond_t zero;
    int n[AT_COUNTED_DEVICES];
} at_device_counts;

#define AT_DEVICE_COUNTS_INIT \
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}}

/* Waits until device's count is 0, then adds add to it (0: only waits),
 * both under the lock. */
void at_device_count_wait(at_device_counts *c, int device, int add);
/* Adds add to device's count (may be negative), waking the waiters. */
void at_device_count_add(at_device_counts *c, int device, int add);

#endif
