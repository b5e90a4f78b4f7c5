/* A worker thread started on another CPU than the one starting it.
 *
 * Linux places a new thread on its creator's CPU more often than not
 * here (a 2-vCPU VM: 7 runs of 10 of one block's update), and the
 * thread then waits there, behind its creator, for the scheduler's
 * next balance (up to a tick, 4 ms) while the other CPU idles: a short
 * job's "parallel" half ran after the first, or interleaved with it on
 * one CPU. Started with the creator's CPU left out of its mask, the
 * thread runs at once where nothing else does, then takes back the mask
 * it would have had: a placement, not a pin (cpusets and taskset are
 * kept; with one CPU allowed, nothing is changed). */
#ifndef FV_THREAD_H
#define FV_THREAD_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <pthread.h>

/* pthread_create(t, NULL, fn, arg) on another CPU than the caller's,
 * where another is allowed: 0, or pthread_create's error. */
int ht_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* pthread_create(t, NULL, fn, arg), placed as it would be. */
int ht_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

/* pthread_join(t, ret) of a thread started by ht_thread_start or
 * ht_thread_create: its errors' messages are then the caller's to read
 * and hand over (ht_handover, error.h) until it starts the next one. */
int ht_thread_join(pthread_t t, void **ret);

/* The one fan-out of the library's passes: fn run n times at once,
 * fn(arg 0) on the calling thread and fn(arg i), i in [1, n), on workers
 * started by ht_thread_start; returns when all have returned (joined
 * by ht_thread_join: a worker's error is the caller's to hand over). The
 * arguments lie stride bytes apart from args (stride 0: the one shared
 * argument). A worker that cannot be started is left out, and ran[i]
 * (ran may be NULL) says which did: a pass hands its work out from a
 * shared queue, so the ones that run do it all. Returns how many ran. */
unsigned ht_fan_out(unsigned n, void *(*fn)(void *), void *args,
		    size_t stride, unsigned char *ran);

#endif
