/* Worker threads started away from their creator's CPU (thread.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "thread.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t wide; /* the mask the thread takes back */
};

static void *started(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	/* where it runs now stays its choice; the mask is the process's
	 * again, for the scheduler to move it if it must */
	sched_setaffinity(0, sizeof(s.wide), &s.wide);
	return s.fn(s.arg);
}

int ht_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct start *s;
	cpu_set_t away;
	pthread_attr_t attr;
	int cpu = sched_getcpu(), r;

	/* a mask this one cannot read (over CPU_SETSIZE CPUs), or nowhere
	 * else to go: started as it would be */
	if (cpu < 0 || cpu >= CPU_SETSIZE || !(s = malloc(sizeof(*s))))
		return pthread_create(t, NULL, fn, arg);
	if (sched_getaffinity(0, sizeof(s->wide), &s->wide) ||
	    !CPU_ISSET(cpu, &s->wide) || CPU_COUNT(&s->wide) < 2) {
		free(s);
		return pthread_create(t, NULL, fn, arg);
	}
	s->fn = fn;
	s->arg = arg;
	away = s->wide;
	CPU_CLR(cpu, &away);
	if ((r = pthread_attr_init(&attr))) {
		free(s);
		return r;
	}
	r = pthread_attr_setaffinity_np(&attr, sizeof(away), &away);
	if (!r)
		r = pthread_create(t, &attr, started, s);
	pthread_attr_destroy(&attr);
	if (r == EINVAL) /* the mask refused: started as it would be */
		r = pthread_create(t, NULL, started, s);
	if (r)
		free(s);
	return r;
}

unsigned ht_fan_out(unsigned n, void *(*fn)(void *), void *args,
		    size_t stride, unsigned char *ran)
{
	struct {
		pthread_t t;
		int started;
	} few[16], *w = n <= 16 ? few : calloc(n, sizeof(*w));
	unsigned count = 1;

	for (unsigned i = 1; i < n; i++) {
		/* no room to track more workers: the caller's thread does
		 * their share */
		int ok = w && !ht_thread_start(&w[i].t, fn,
					       (char *)args + i * stride);

		if (w)
			w[i].started = ok;
		if (ran)
			ran[i] = (unsigned char)ok;
		count += (unsigned)ok;
	}
	if (ran && n)
		ran[0] = 1;
	if (n)
		fn(args);
	for (unsigned i = 1; w && i < n; i++)
		if (w[i].started)
			pthread_join(w[i].t, NULL);
	if (w != few)
		free(w);
	return n ? count : 0;
}
