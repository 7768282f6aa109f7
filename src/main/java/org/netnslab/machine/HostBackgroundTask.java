package org.netnslab.machine;

import java.util.function.IntSupplier;

/**
 * The running {@link HostBackground} of one design run's machine: a {@link CpuTask.Kind#HOST} task that wakes every
 * period and runs, as one preemptible user step, the CPU the netns alive at that instant call for. Its steps are
 * not the model's progress ({@link Machine#modelSteps()} leaves them out), so a stalled model is still found.
 * Virtual execution under the fair scheduler only; driven by the engine's thread.
 */
public final class HostBackgroundTask {
    private final Machine machine;
    private final HostBackground settings;
    private final IntSupplier netns;
    private final CpuTask task;
    private VirtualEngine.Event next;
    /** CPU called for and not yet started, ns: a wake-up while the last step still runs adds to it. */
    private long owed;

    private boolean running;
    /** The design run has ended: no further step starts (the machine's CPUs may be a new design run's by then). */
    private boolean stopped;

    private HostBackgroundTask(Machine machine, HostBackground settings, IntSupplier netns) {
        this.machine = machine;
        this.settings = settings;
        this.netns = netns;
        boolean runs = settings != null;
        this.task = runs ? machine.newTask("host-background", CpuTask.Kind.HOST) : null;
        this.next = runs ? machine.engine().schedule(settings.periodNanos(), this::wake) : null;
    }

    /**
     * Starts the task, its first wake-up one period from now.
     *
     * @param machine the design run's machine
     * @param netns the netns alive now, read at each wake-up on the engine's thread (the supervisor's count)
     * @return the task; one that never runs where the machine has no host background, is live or runs fifo
     */
    public static HostBackgroundTask start(Machine machine, IntSupplier netns) {
        boolean runs = machine.isVirtual()
                && machine.fair()
                && !machine.settings().hostBackground().none();
        return new HostBackgroundTask(machine, runs ? machine.settings().hostBackground() : null, netns);
    }

    private void wake() {
        owed += settings.nanosPerPeriod(netns.getAsInt());
        runOwed();
        next = machine.engine().schedule(settings.periodNanos(), this::wake);
    }

    private void runOwed() {
        if (running || owed == 0 || stopped) {
            return;
        }
        running = true;
        long nanos = owed;
        owed = 0;
        machine.compute(task, Step.USER, nanos, () -> {
            running = false;
            runOwed();
        });
    }

    /**
     * Stops the wake-ups and the CPU still owed (the design run's end): a background that calls for more than the CPUs
     * give would otherwise go on stepping past its run; a step already on a CPU runs out.
     */
    public void stop() {
        stopped = true;
        if (next != null) {
            next.cancel();
        }
    }
}
