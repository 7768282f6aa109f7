package org.netnslab.machine;

import java.util.Locale;

/**
 * How the simulated CPUs schedule tasks (scenario keys {@code machine.scheduler}, {@code machine.preempt},
 * {@code machine.hz}, {@code machine.base-slice}, {@code machine.context-switch}; defaults in reference.conf).
 *
 * @param scheduler {@link Scheduler#FAIR} (EEVDF, kernel/sched/fair.c since v6.6) or {@link Scheduler#FIFO}
 *     (one FIFO queue of never-preempted steps, for the closed-network tests and for comparison)
 * @param preempt the kernel's preemption model (CONFIG_PREEMPT_NONE / VOLUNTARY / PREEMPT), fair only
 * @param hz timer ticks per second (CONFIG_HZ), 100..1000; the tick is when a task past its slice is
 *     marked for rescheduling
 * @param baseSliceNanos EEVDF's base slice (sysctl_sched_base_slice), ns; 0: derived from the CPU count as
 *     the kernel does at boot ({@link #sliceNanos})
 * @param contextSwitchNanos CPU time a switch to another task costs (charged to the incoming task as
 *     kernel time), ns; fair only
 * @param taskGroup where the load's processes are against the kernel threads ({@code machine.task-group}); fair
 *     only
 * @param coldSwitch what a switch-in costs more when other tasks ran since the task last ran
 *     ({@code machine.cold-switch}); fair only
 */
public record Scheduling(
        Scheduler scheduler,
        Preempt preempt,
        int hz,
        long baseSliceNanos,
        long contextSwitchNanos,
        TaskGroup taskGroup,
        ColdSwitch coldSwitch) {

    /**
     * The task group of the load's processes (CONFIG_FAIR_GROUP_SCHED, kernel/sched/fair.c's group entities).
     * Kernel threads are always in the root task group: kthreadd's autogroup is autogroup_default, whose
     * task group is root_task_group (kernel/sched/autogroup.c autogroup_init).
     */
    public enum TaskGroup {
        /**
         * The load's processes are in the root task group with the kernel threads: one fair queue over all
         * tasks. sched_autogroup off ({@code kernel.sched_autogroup_enabled = 0}), or the load started from
         * init's session in the root cpu cgroup.
         */
        ROOT,
        /**
         * The load's processes share one task group of their own, which competes in the root group as one
         * entity of weight 1024 (a nice-0 group's shares) against each kernel thread: sched_autogroup's group
         * for their session (setsid(2); autogroup_task_group, when their cpu cgroup is the root one), or a cpu
         * cgroup of their own.
         */
        SESSION;

        /**
         * @param s "root" or "session"
         * @return the value
         * @throws IllegalArgumentException naming the key otherwise
         */
        public static TaskGroup parse(String s) {
            return Scheduling.parse(values(), "machine.task-group", s);
        }
    }

    /**
     * The machine with every task in the root task group.
     *
     * @param scheduler as the canonical constructor
     * @param preempt as the canonical constructor
     * @param hz as the canonical constructor
     * @param baseSliceNanos as the canonical constructor
     * @param contextSwitchNanos as the canonical constructor
     */
    public Scheduling(Scheduler scheduler, Preempt preempt, int hz, long baseSliceNanos, long contextSwitchNanos) {
        this(scheduler, preempt, hz, baseSliceNanos, contextSwitchNanos, TaskGroup.ROOT);
    }

    /**
     * The machine with no cold-switch extra.
     *
     * @param scheduler as the canonical constructor
     * @param preempt as the canonical constructor
     * @param hz as the canonical constructor
     * @param baseSliceNanos as the canonical constructor
     * @param contextSwitchNanos as the canonical constructor
     * @param taskGroup as the canonical constructor
     */
    public Scheduling(
            Scheduler scheduler,
            Preempt preempt,
            int hz,
            long baseSliceNanos,
            long contextSwitchNanos,
            TaskGroup taskGroup) {
        this(scheduler, preempt, hz, baseSliceNanos, contextSwitchNanos, taskGroup, ColdSwitch.NONE);
    }

    /** The run queue discipline. */
    public enum Scheduler {
        /** EEVDF over one global queue ({@link FairCpus}). */
        FAIR,
        /** One FIFO queue of steps, none preempted ({@link FifoCpus}). */
        FIFO;

        /**
         * @param s "fair" or "fifo"
         * @return the value
         * @throws IllegalArgumentException naming the key otherwise
         */
        public static Scheduler parse(String s) {
            return Scheduling.parse(values(), "machine.scheduler", s);
        }
    }

    /**
     * The preemption model (kernel/Kconfig.preempt; with PREEMPT_DYNAMIC the boot option {@code preempt=}),
     * as kernel/sched/core.c's preempt_dynamic_mode sets cond_resched() and might_resched():
     * none: cond_resched() on, might_resched() off; voluntary: both on; full: both off, preemptible anywhere
     * preemption is enabled.
     */
    public enum Preempt {
        /**
         * A task in kernel mode keeps its CPU until it sleeps, returns to user space or reaches a
         * cond_resched() with need_resched set.
         */
        NONE,
        /** NONE plus the might_sleep() points (might_resched(), e.g. at the start of mutex_lock()). */
        VOLUNTARY,
        /** Preemptible between any two kernel steps outside a held spinlock. */
        FULL;

        /**
         * Whether a task marked need_resched gives its CPU up between a step of kind {@code prev} and its next one, of
         * kind {@code next}: always at a user step's end or the return to user space (exit_to_user_mode_loop); inside
         * a system call at the points this model enables.
         *
         * @param prev the kind of the step that has just ended
         * @param next the kind of the task's next step
         * @return true when that boundary is a preemption point
         */
        public boolean preemptsAt(Step prev, Step next) {
            if (prev == Step.USER || next == Step.USER) {
                return true;
            }
            return switch (prev) {
                case COND_RESCHED -> true;
                case MIGHT_SLEEP -> this != NONE;
                case KERNEL -> this == FULL;
                default -> false;
            };
        }

        /**
         * @param s none, voluntary or full
         * @return the value
         * @throws IllegalArgumentException naming the key otherwise
         */
        public static Preempt parse(String s) {
            return Scheduling.parse(values(), "machine.preempt", s);
        }
    }

    /**
     * The FIFO machine: what the 3-argument {@link MachineSettings} gets (tests of the engine); scenarios get
     * reference.conf's {@code machine.scheduler}, by default fair.
     */
    public static final Scheduling FIFO = new Scheduling(Scheduler.FIFO, Preempt.NONE, 250, 0, 0);

    /** Checks the ranges. */
    public Scheduling {
        if (scheduler == null || preempt == null || taskGroup == null || coldSwitch == null) {
            throw new IllegalArgumentException(
                    "machine.scheduler, machine.preempt, machine.task-group and machine.cold-switch must be given");
        }
        if (hz < 100 || hz > 1000) {
            throw new IllegalArgumentException("machine.hz must be in 100..1000, got " + hz);
        }
        if (baseSliceNanos < 0 || baseSliceNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("machine.base-slice must be in 0..1s, got " + baseSliceNanos + " ns");
        }
        if (contextSwitchNanos < 0 || contextSwitchNanos > 1_000_000L) {
            throw new IllegalArgumentException(
                    "machine.context-switch must be in 0..1ms, got " + contextSwitchNanos + " ns");
        }
    }

    /**
     * Builds the CPUs these rules describe: the one place the scheduler is chosen.
     *
     * @param engine the engine whose clock the steps use
     * @param count CPUs, >= 1
     * @return a {@link FifoCpus} or a {@link FairCpus}
     * @throws IllegalArgumentException when {@code count < 1}
     */
    public Cpus newCpus(VirtualEngine engine, int count) {
        return switch (scheduler) {
            case FIFO -> new FifoCpus(engine, count, this);
            case FAIR -> new FairCpus(engine, count, this);
        };
    }

    /** @return one tick, ns (1 / hz) */
    public long tickNanos() {
        return 1_000_000_000L / hz;
    }

    /**
     * The slice a task gets, as the kernel sets it at boot: sysctl_sched_base_slice = 0.75 ms x
     * (1 + ilog2(min(online CPUs, 8))) under the default SCHED_TUNABLESCALING_LOG
     * (kernel/sched/fair.c get_update_sysctl_factor, update_sysctl): 0.75 ms at 1 CPU, 1.5 ms at 2, 2.25 ms
     * at 4, 3 ms from 8.
     *
     * @param cpus the machine's CPUs
     * @return {@link #baseSliceNanos} when set, else the derived slice, ns
     */
    public long sliceNanos(int cpus) {
        if (baseSliceNanos > 0) {
            return baseSliceNanos;
        }
        int factor = 1 + (31 - Integer.numberOfLeadingZeros(Math.min(cpus, 8)));
        return 750_000L * factor;
    }

    /**
     * @param values the enum's constants
     * @param key the scenario key, for the message
     * @param s one of the constants' names in any case, e.g. "fair"
     * @return that constant
     * @throws IllegalArgumentException naming the key and the accepted values, e.g. "machine.preempt must be none,
     *     voluntary or full, got 'x'"
     */
    private static <E extends Enum<E>> E parse(E[] values, String key, String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        for (E e : values) {
            if (e.name().toLowerCase(Locale.ROOT).equals(lower)) {
                return e;
            }
        }
        StringBuilder accepted = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            accepted.append(i == 0 ? "" : i == values.length - 1 ? " or " : ", ")
                    .append(values[i].name().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException(key + " must be " + accepted + ", got '" + s + "'");
    }
}
