// SPDX-License-Identifier: GPL-2.0
/*
 * Sequenced event producer: writes seq_producer:seq_event events that carry
 * a 64-bit sequence number, so that a ring-buffer consumer can check that
 * every event of a run was either delivered or accounted for as lost.
 *
 * A test fixture of this project (examples/modules/), not a kernel sample:
 * samples/trace_events already shows a kthread emitting dynamic arrays.
 * Being out of the kernel's namespace, it keeps its short event name
 * (trace_seq_event() is not a trace_seq_*() function), which the labs,
 * transcripts and benchmarks record; and the event keeps its "len" field
 * next to the dynamic array's own length, on purpose: tests/vm/seq_consume
 * checks a consumer's __data_loc decoding against it.
 *
 * Control, in /sys/module/seq_producer/parameters/:
 *   cpu       CPU the producer runs on; -1 lets the scheduler choose (0).
 *             A run bound to a CPU ends when that CPU goes offline.
 *   size      payload bytes per event, 0..SEQ_PRODUCER_MAX_SIZE (0);
 *             a larger value is refused (EINVAL) when written
 *   rate      events per second; 0 is as fast as possible (0)
 *   count     events per run; 0 runs until stopped (0)
 *   run       write 1 to start a run with the values above (EBUSY while a
 *             run is producing), 0 to stop it; reads 1 while a run is
 *             producing, 0 once it has ended or was stopped
 *   produced  events written by the current or last run (read-only)
 *
 * A run numbers its events 0, 1, 2, ... and the payload byte i of event
 * seq is (seq + i) & 0xff. Enable the event before starting a run:
 *
 *   echo 1 > /sys/kernel/tracing/events/seq_producer/enable
 *   insmod seq_producer.ko cpu=1 count=100000 run=1
 *
 * Changing a parameter during a run affects the next run. Removing the
 * module stops a run, and no run starts once the removal has begun.
 */

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>

#define CREATE_TRACE_POINTS
#include "seq_producer_trace.h"

#define SEQ_PRODUCER_MAX_SIZE 2048

static int cpu;
module_param(cpu, int, 0644);
MODULE_PARM_DESC(cpu, "CPU to produce on, -1 for any (default 0)");

static uint size;

static int size_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, SEQ_PRODUCER_MAX_SIZE);
}

static const struct kernel_param_ops size_ops = {
	.set = size_set,
	.get = param_get_uint,
};
module_param_cb(size, &size_ops, &size, 0644);
MODULE_PARM_DESC(size, "payload bytes per event (default 0, at most 2048)");

static uint rate;
module_param(rate, uint, 0644);
MODULE_PARM_DESC(rate, "events per second, 0 for as fast as possible");

static ulong count;
module_param(count, ulong, 0644);
MODULE_PARM_DESC(count, "events per run, 0 until stopped");

/* Written by the producer thread while sysfs reads it */
static ulong produced;

static int produced_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int produced_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%lu\n", READ_ONCE(produced));
}

static const struct kernel_param_ops produced_ops = {
	.set = produced_set,
	.get = produced_get,
};
module_param_cb(produced, &produced_ops, NULL, 0444);
MODULE_PARM_DESC(produced, "events written by the current or last run");

/* byte i of the payload of event seq is pattern[(seq & 0xff) + i] */
static u8 pattern[SEQ_PRODUCER_MAX_SIZE + 256];

struct seq_run {
	int cpu; /* -1: any */
	u32 size;
	u32 rate;
	u64 count;
};

static DEFINE_MUTEX(run_lock);
static struct task_struct *producer; /* under run_lock */
static struct seq_run run_cfg; /* under run_lock */
static bool run_done; /* the run's last event is written */
static bool loaded; /* module_init has run */
static bool unloading; /* module_exit has begun */
static bool start_on_load; /* run=1 given at load time */

static void seq_wait_until(ktime_t start, u64 seq, u32 rate)
{
	u64 offset = mul_u64_u64_div_u64(seq, NSEC_PER_SEC, rate);
	ktime_t next = ktime_add_ns(start, offset);

	set_current_state(TASK_IDLE);
	if (ktime_before(ktime_get(), next) && !kthread_should_stop())
		schedule_hrtimeout_range(&next, 0, HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
}

static int seq_producer_fn(void *data)
{
	const struct seq_run *cfg = data;
	ktime_t start = ktime_get();
	u64 seq;

	for (seq = 0; !cfg->count || seq < cfg->count; seq++) {
		if (kthread_should_stop())
			break;
		/* A bound run ends when its CPU went offline under it */
		preempt_disable();
		if (cfg->cpu >= 0 && smp_processor_id() != cfg->cpu) {
			preempt_enable();
			break;
		}
		trace_seq_event(seq, &pattern[seq & 0xff], cfg->size);
		preempt_enable();
		WRITE_ONCE(produced, seq + 1);
		if (cfg->rate)
			seq_wait_until(start, seq + 1, cfg->rate);
		else
			cond_resched();
	}
	WRITE_ONCE(run_done, true);

	/* kthread_stop() reaps the thread: wait for it */
	for (;;) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void seq_producer_stop(void)
{
	lockdep_assert_held(&run_lock);
	if (!producer)
		return;
	kthread_stop(producer);
	producer = NULL;
}

static int seq_producer_start(void)
{
	struct task_struct *task;
	int on_cpu = READ_ONCE(cpu);

	lockdep_assert_held(&run_lock);
	if (producer && !READ_ONCE(run_done))
		return -EBUSY;
	seq_producer_stop();

	run_cfg.cpu = on_cpu;
	run_cfg.size = READ_ONCE(size);
	run_cfg.rate = READ_ONCE(rate);
	run_cfg.count = READ_ONCE(count);

	/* The CPU stays online until the bound thread runs on it */
	cpus_read_lock();
	if (on_cpu != -1 &&
	    (on_cpu < 0 || on_cpu >= nr_cpu_ids || !cpu_online(on_cpu))) {
		cpus_read_unlock();
		return -EINVAL;
	}
	task = kthread_create(seq_producer_fn, &run_cfg, "seq_producer");
	if (IS_ERR(task)) {
		cpus_read_unlock();
		return PTR_ERR(task);
	}
	if (on_cpu != -1)
		kthread_bind(task, on_cpu);
	WRITE_ONCE(produced, 0);
	WRITE_ONCE(run_done, false);
	producer = task;
	wake_up_process(task);
	cpus_read_unlock();
	return 0;
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	bool start;
	int ret;

	ret = kstrtobool(val, &start);
	if (ret)
		return ret;

	mutex_lock(&run_lock);
	/*
	 * The parameter files outlive module_exit() until sysfs removes
	 * them: a run started then would run in freed module text.
	 */
	if (unloading)
		ret = -ENODEV;
	else if (!loaded)
		start_on_load = start;
	else if (start)
		ret = seq_producer_start();
	else
		seq_producer_stop();
	mutex_unlock(&run_lock);
	return ret;
}

static int run_get(char *buffer, const struct kernel_param *kp)
{
	bool running;

	mutex_lock(&run_lock);
	running = producer && !READ_ONCE(run_done);
	mutex_unlock(&run_lock);
	return sysfs_emit(buffer, "%d\n", running);
}

static const struct kernel_param_ops run_ops = {
	.set = run_set,
	.get = run_get,
};
module_param_cb(run, &run_ops, NULL, 0644);
MODULE_PARM_DESC(run, "1 starts a run, 0 stops it; reads 1 while producing");

static int __init seq_producer_init(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(pattern); i++)
		pattern[i] = i & 0xff;

	mutex_lock(&run_lock);
	loaded = true;
	if (start_on_load)
		ret = seq_producer_start();
	mutex_unlock(&run_lock);
	return ret;
}

static void __exit seq_producer_exit(void)
{
	mutex_lock(&run_lock);
	unloading = true;
	seq_producer_stop();
	mutex_unlock(&run_lock);
}

module_init(seq_producer_init);
module_exit(seq_producer_exit);

MODULE_AUTHOR("Trace Mmap Guide <guide@example.org>");
MODULE_DESCRIPTION("Sequenced trace event producer for ring-buffer consumers");
MODULE_LICENSE("GPL");
