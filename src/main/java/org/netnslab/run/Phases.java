package org.netnslab.run;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.machine.Machine;
import org.netnslab.machine.VirtualEngine;

/**
 * Starting and awaiting the phases of one design's run: progress and phase lines through the
 * {@link RunObserver} and stall detection (no operation completes and no model step is running
 * ({@link Machine#busyUntil()}) for the stall timeout). Used from the runner's thread only.
 */
public final class Phases {
    /** A virtual phase reads the wall clock for its progress line at every this many engine checks (a power of 2). */
    private static final int WALL_READ_EVERY = 256;

    private final ActorRef<Runnable> starter;
    private final RunSettings settings;
    private final RunObserver observer;
    private final String design;
    private final Machine machine;

    /**
     * The starter runs a phase's kick-off inside the actor system. Told from the runner's thread, Start
     * messages would sit in the dispatcher's external queue, which workers poll only when their own
     * queues are empty: each workload actor would then run its whole loop alone and the "parallel"
     * ones would run one after the other. Told from an actor, all of them are runnable at once and
     * time-share the cores, as the seeds' parallel processes did.
     *
     * @return the starter's behaviour: it runs each Runnable it is told
     */
    static Behavior<Runnable> starter() {
        return Behaviors.receiveMessage(r -> {
            r.run();
            return Behaviors.same();
        });
    }

    /**
     * @param starter a {@link #starter()} of the design
     * @param settings stall timeout and progress interval
     * @param observer told of progress
     * @param design the design's name, for progress and messages
     * @param machine live or virtual: where the phase's time comes from
     */
    Phases(ActorRef<Runnable> starter, RunSettings settings, RunObserver observer, String design, Machine machine) {
        this.starter = starter;
        this.settings = settings;
        this.observer = observer;
        this.design = design;
        this.machine = machine;
    }

    /**
     * Runs {@code kickOff} in the actor system, then waits for {@code done}, reporting progress and
     * failing when nothing progresses for the stall timeout.
     *
     * @param label the phase's name
     * @param kickOff tells the workload actors to start
     * @param done opened when every workload actor has finished the phase
     * @param progress counts completed operations (of this and earlier phases)
     * @param total operations the phase will complete
     * @return the phase's time, ns: wall time live, simulated time virtual
     * @throws RunFailure when the phase stalls or the thread is interrupted
     */
    public long run(String label, Runnable kickOff, CountDownLatch done, LongAdder progress, long total)
            throws RunFailure {
        return run(label, kickOff, done, progress, total, null);
    }

    /**
     * As {@link #run(String, Runnable, CountDownLatch, LongAdder, long)}, and appends one sample per
     * progress interval to {@code samples}: {seconds since the phase started, operations per second
     * over the interval}.
     */
    public long run(
            String label, Runnable kickOff, CountDownLatch done, LongAdder progress, long total, List<double[]> samples)
            throws RunFailure {
        if (machine.isVirtual()) {
            return runVirtual(label, kickOff, done, progress, total, samples);
        }
        long base = progress.sum();
        long start = System.nanoTime();
        observer.phaseStarting(design, label, total, () -> progress.sum() - base);
        starter.tell(kickOff);
        long lastDone = -1;
        long lastChange = start;
        long lastSampleNanos = start;
        long lastSampleDone = 0;
        try {
            while (!done.await(settings.progressInterval().toMillis(), TimeUnit.MILLISECONDS)) {
                long now = System.nanoTime();
                long d = progress.sum() - base;
                observer.progress(design, label, d, total, now - start);
                if (samples != null) {
                    samples.add(
                            new double[] {(now - start) / 1e9, (d - lastSampleDone) / ((now - lastSampleNanos) / 1e9)});
                    lastSampleNanos = now;
                    lastSampleDone = d;
                }
                if (d != lastDone) {
                    lastDone = d;
                    lastChange = now;
                } else if (now - Math.max(lastChange, machine.busyUntil())
                        > settings.stallTimeout().toNanos()) {
                    throw new RunFailure(
                            design + ": " + label + " phase stalled at " + d + " of " + total + " for at least "
                                    + settings.stallTimeout().toMillis()
                                    + " ms (netns-lab.run.stall-timeout); an actor may have failed:"
                                    + " see the log lines on stderr");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure(design + ": interrupted in the " + label + " phase", e);
        }
        long wall = System.nanoTime() - start;
        if (samples != null && wall > lastSampleNanos - start) {
            long d = progress.sum() - base;
            samples.add(new double[] {wall / 1e9, (d - lastSampleDone) / ((start + wall - lastSampleNanos) / 1e9)});
        }
        observer.phaseDone(design, label, counted(progress.sum() - base, total), wall);
        return wall;
    }

    /**
     * Starts a phase that lasts a wall time and that the runner's own loop drives, a step at a time (a soak's
     * rounds): its progress is the time passed, in seconds (milliseconds for a length of a fraction), reported
     * between steps ({@link Timed#step}) every progress interval and readable at any moment (the line an interrupt
     * prints).
     *
     * @param label the phase's name
     * @param startNanos when it started, {@link System#nanoTime()}
     * @param lengthNanos how long it lasts, wall time, ns
     * @return the phase, running
     */
    public Timed timed(String label, long startNanos, long lengthNanos) {
        return new Timed(label, startNanos, lengthNanos);
    }

    /**
     * Announces a wait the runner does itself (every net_free after a churn's loops) as a phase of its own: its two
     * lines, and its share done in the line an interrupt prints, so the time after the last operation of the phase
     * before is not taken for that phase's.
     *
     * @param label the phase's name
     * @param total what the wait is for, counted
     * @param done how much of it is done, readable from any thread
     * @return the phase, running: {@link Waiting#done} when the wait is over
     */
    public Waiting waiting(String label, long total, java.util.function.LongSupplier done) {
        return new Waiting(label, total, done);
    }

    /** A phase of {@link #waiting}. */
    public final class Waiting {
        private final String label;
        private final long total;
        private final long start = machine.isVirtual() ? machine.nanoTime() : System.nanoTime();

        private Waiting(String label, long total, java.util.function.LongSupplier done) {
            this.label = label;
            this.total = total;
            observer.phaseStarting(design, label, total, done);
        }

        /** Ends the phase: its line, with the time it took (simulated in virtual execution, as the other phases). */
        public void done() {
            if (machine.isVirtual()) {
                observer.phaseDone(design, label + " (simulated time)", total, machine.nanoTime() - start);
            } else {
                observer.phaseDone(design, label, total, System.nanoTime() - start);
            }
        }
    }

    /**
     * A phase of {@link #timed}: measured in whole seconds of wall time, at least one, or in milliseconds when its
     * length is not a whole number of seconds (so that the line says the length it runs).
     */
    public final class Timed {
        private final String label;
        private final long start;
        private final long length;
        /** ns in the unit the phase is counted in: a second or a millisecond. */
        private final long unitNanos;

        private final long units;
        private long nextReport;

        private Timed(String label, long start, long length) {
            this.label = label;
            this.start = start;
            this.length = length;
            this.unitNanos = length % 1_000_000_000L == 0 ? 1_000_000_000L : 1_000_000L;
            this.units = Math.max(1, (length + unitNanos - 1) / unitNanos);
            this.nextReport = start + settings.progressInterval().toNanos();
            observer.phaseStarting(design, label, units, this::passed, unitNanos == 1_000_000L ? "ms" : "s");
        }

        private long passed() {
            return Math.min(units, (System.nanoTime() - start) / unitNanos);
        }

        /**
         * After one step of the loop: reports the time passed when a progress interval is over.
         *
         * @return whether the phase's time is up (the loop ends)
         */
        public boolean step() {
            long now = System.nanoTime();
            if (now >= nextReport) {
                observer.progress(design, label, passed(), units, now - start);
                nextReport = now + settings.progressInterval().toNanos();
            }
            return now - start >= length;
        }

        /** Ends the phase: its line, with the wall time it took. */
        public void done() {
            observer.phaseDone(design, label, units, System.nanoTime() - start);
        }
    }

    /**
     * The phase in virtual execution: the runner's thread drives the engine until the phase is done.
     * Progress lines follow wall time (what the user waits for); the throughput samples ({@link ThroughputMarks}) and
     * the stall rule follow simulated time (what the model does): a phase stalls when no operation completes and no
     * model step starts or runs for the stall timeout of simulated time (a cleanup batch of 70,000 netns is one long
     * run of steps before its first netns is freed).
     */
    private long runVirtual(
            String label, Runnable kickOff, CountDownLatch done, LongAdder progress, long total, List<double[]> samples)
            throws RunFailure {
        long base = progress.sum();
        long wallStart = System.nanoTime();
        long start = machine.nanoTime();
        long interval = settings.progressInterval().toNanos();
        long stall = settings.stallTimeout().toNanos();
        // next report (wall), last done, last change, checks, model steps started
        long[] st = {wallStart + interval, -1, start, 0, machine.modelSteps()};
        ThroughputMarks marks = new ThroughputMarks(start);
        observer.phaseStarting(design, label, total, () -> progress.sum() - base);
        starter.tell(kickOff);
        try {
            machine.engine()
                    .runUntil(
                            () -> done.getCount() == 0,
                            now -> {
                                long d = progress.sum() - base;
                                if (d != st[1]) {
                                    st[1] = d;
                                    st[2] = now;
                                } else if (now - Math.max(st[2], machine.busyUntil()) > stall) {
                                    // model steps started in that window (read only here: not at every event) are
                                    // slow work, not a stall: a new window from now
                                    long steps = machine.modelSteps();
                                    if (steps == st[4]) {
                                        throw new VirtualEngine.Stalled(design + ": " + label + " phase stalled at " + d
                                                + " of " + total + " for at least "
                                                + settings.stallTimeout().toMillis()
                                                + " ms of simulated time (netns-lab.run.stall-timeout)");
                                    }
                                    st[4] = steps;
                                    st[2] = now;
                                }
                                marks.at(now, d);
                                // the wall clock only every 256th check: the engine checks before nearly every
                                // event, and a clock read there cost a full TC1 run about 7% of its time
                                if ((++st[3] & (WALL_READ_EVERY - 1)) == 0) {
                                    long wall = System.nanoTime();
                                    if (wall >= st[0]) {
                                        observer.progress(design, label, d, total, wall - wallStart);
                                        st[0] = wall + interval;
                                    }
                                }
                            },
                            Driver.IDLE_WALL.toNanos());
        } catch (VirtualEngine.Stalled e) {
            throw new RunFailure(e.getMessage(), e);
        }
        long simulated = machine.nanoTime() - start;
        if (samples != null) {
            marks.series(start + simulated, progress.sum() - base, samples);
        }
        observer.phaseDone(design, label + " (simulated time)", counted(progress.sum() - base, total), simulated);
        return simulated;
    }

    /**
     * @return what a finished phase did: its count where that ended below the total announced (a proc listener's
     *     filter passes only part of the events it may receive), else the total
     */
    private static long counted(long done, long total) {
        return done > 0 && done < total ? done : total;
    }
}
