/* Worker threads started away from their creator's CPU (thread.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "error.h"
#include "thread.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	struct ht_store *errors; /* where its messages go (error.h) */
	int placed;              /* started away: wide to take back */
	cpu_set_t wide;          /* the mask the thread takes back */
};

static void *started(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	if (s.errors)
		ht_store_use(s.errors);
	/* where it runs now stays its choice; the mask is the process's
	 * again, for the scheduler to move it if it must */
	if (s.placed)
		sched_setaffinity(0, sizeof(s.wide), &s.wide);
	return s.fn(s.arg);
}

/* pthread_create of s (attr may be NULL), its store lent. */
static int create(pthread_t *t, const pthread_attr_t *attr, struct start *s)
{
	struct ht_store *errors = s->errors; /* s is the thread's to free */
	int r = pthread_create(t, attr, started, s);

	if (!r && errors)
		ht_store_lent_to(errors, *t);
	return r;
}

static struct start *start_new(void *(*fn)(void *), void *arg)
{
	struct start *s = calloc(1, sizeof(*s));

	if (s) {
		s->fn = fn;
		s->arg = arg;
		s->errors = ht_store_lend();
	}
	return s;
}

static void start_free(struct start *s)
{
	if (s->errors)
		ht_store_unlend(s->errors);
	free(s);
}

int ht_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct start *s = start_new(fn, arg);
	int r;

	if (!s)
		return pthread_create(t, NULL, fn, arg);
	if ((r = create(t, NULL, s)))
		start_free(s);
	return r;
}

int ht_thread_join(pthread_t t, void **ret)
{
	int r = pthread_join(t, ret);

	if (!r)
		ht_store_joined(t);
	return r;
}

int ht_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct start *s;
	cpu_set_t away;
	pthread_attr_t attr;
	int cpu = sched_getcpu(), r;

	if (!(s = start_new(fn, arg)))
		return pthread_create(t, NULL, fn, arg);
	/* a mask this one cannot read (over CPU_SETSIZE CPUs), or nowhere
	 * else to go: started as it would be */
	if (cpu < 0 || cpu >= CPU_SETSIZE ||
	    sched_getaffinity(0, sizeof(s->wide), &s->wide) ||
	    !CPU_ISSET(cpu, &s->wide) || CPU_COUNT(&s->wide) < 2) {
		if ((r = create(t, NULL, s)))
			start_free(s);
		return r;
	}
	s->placed = 1;
	away = s->wide;
	CPU_CLR(cpu, &away);
	if ((r = pthread_attr_init(&attr))) {
		start_free(s);
		return r;
	}
	r = pthread_attr_setaffinity_np(&attr, sizeof(away), &away);
	if (!r)
		r = create(t, &attr, s);
	pthread_attr_destroy(&attr);
	if (r == EINVAL) /* the mask refused: started as it would be */
		r = create(t, NULL, s);
	if (r)
		start_free(s);
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
			ht_thread_join(w[i].t, NULL);
	if (w != few)
		free(w);
	return n ? count : 0;
}
