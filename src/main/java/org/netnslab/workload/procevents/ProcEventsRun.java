package org.netnslab.workload.procevents;

import static org.netnslab.metrics.Invariants.Counter.ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.LOST_WITHOUT_ENOBUFS;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.stream.javadsl.Flow;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import akka.stream.javadsl.Source;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.netnslab.design.Design;
import org.netnslab.machine.Clock;
import org.netnslab.machine.Machine;
import org.netnslab.machine.SameThread;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.proc.ConnectorMonitor;
import org.netnslab.proc.PidfdMonitor;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcScanMonitor;
import org.netnslab.proc.ProcSettings;
import org.netnslab.proc.ProcSubscriber;
import org.netnslab.proc.ProcessTable;
import org.netnslab.proc.SyscallCost;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * Runs the {@code proc-events} workload for one design: the same fork/exec/exit stream
 * ({@link ProcessTable}), learnt of by proc connector listeners (filtered per listener or not,
 * {@link ConnectorMonitor}), by one pidfd per process ({@link PidfdMonitor}), or by scanning the
 * process table ({@link ProcScanMonitor}). Every monitor does the same work per event it handles;
 * what differs is how many events reach it and what else it must do to learn of them.
 *
 * <p>Measures: {@link ProcEventsWorkload#BUSY}{@code <listener>} (ms of handling over the run, one value
 * per listener, or per monitor: {@code pidfd}, {@code proc-scan}), {@link ProcEventsWorkload#EVENT}
 * (generation to receipt, us, connector only), {@link ProcEventsWorkload#SCAN} (ms per scan).
 *
 * @param w the workload
 * @param scale multiplies the processes
 */
public record ProcEventsRun(ProcEventsWorkload w, double scale) implements DesignRunner {

    @Override
    public DesignResult run(Design design, DesignScope scope) throws RunFailure {
        List<ProcEvent> events = ProcessTable.shortLived(w.scaledProcesses(scale), w.nonzeroExitFraction());
        // live: proc-monitor.syscall-cost per call + measured handling; virtual: costs.proc only
        SyscallCost syscalls = scope.machine().isVirtual()
                ? SyscallCost.virtual(design.model().costs().proc(), scope.machine()::jittered)
                : SyscallCost.live(design.model().proc().syscallCost().toNanos());
        switch (design.model().proc().monitor()) {
            case PIDFD:
                return pidfd(design, scope, events, syscalls);
            case PROC_SCAN:
                return procScan(design, scope, events, syscalls);
            default:
                return connector(design, scope, events, syscalls);
        }
    }

    private DesignResult connector(Design design, DesignScope scope, List<ProcEvent> events, SyscallCost syscalls)
            throws RunFailure {
        ProcSettings ps = design.model().proc();
        ActorRef<ProcConnector.Command> pc = scope.spawnModel(
                ProcConnector.create(
                        ps.filter(),
                        ps.accounting(),
                        Runtime.getRuntime().availableProcessors(),
                        design.model().netlink()),
                "proc-connector");
        Credentials root = Credentials.root(UserNamespace.INIT, 0);
        // One recorder per listener, written only by its stream and merged once every stream has ended: a
        // shared striped recorder cost a thread-local lookup per event (the proc profile's top frames).
        List<LatencyRecorder> latencies = new ArrayList<>();
        Map<String, ConnectorMonitor> listeners = new LinkedHashMap<>();
        List<Long> sockets = new ArrayList<>();
        List<CompletionStage<Done>> finished = new ArrayList<>();
        LongAdder received = new LongAdder();
        for (Map.Entry<String, Integer> l : w.listeners().entrySet()) {
            ProcConnector.Joined joined = scope.await(
                    ProcSubscriber.listen(
                            pc, root, l.getValue(), ps.listener(), DesignScope.REQUEST_LIMIT, scope.scheduler()),
                    "joining the proc connector and subscribing " + l.getKey());
            LatencyRecorder latency = new LatencyRecorder();
            latencies.add(latency);
            ConnectorMonitor listener = new ConnectorMonitor(l.getValue(), syscalls, latency::record);
            listener.bound(joined.queue());
            listeners.put(l.getKey(), listener);
            sockets.add(joined.socket());
            long wakeup = scope.machine().isVirtual()
                    ? design.model().costs().proc().wakeup().toNanos()
                    : 0;
            Machine machine = scope.machine();
            finished.add(joined.events()
                    .runWith(
                            handled(
                                    machine,
                                    counted(listener::onReceive, received),
                                    listener::busyNanos,
                                    () -> listener.onWakeup(machine.jittered(wakeup)),
                                    listener,
                                    "proc-listener-" + l.getKey()),
                            scope.materializer()));
        }
        long start = scope.machine().nanoTime();
        // One phase: publish every event, then close the sockets (told after the events, from the same actor:
        // each listener drains what it was sent first); done when every listener stream has ended. Progress:
        // events the listeners received (at most every event for every listener: filters and drops take some).
        CountDownLatch done = doneWhenAll(finished);
        scope.phases()
                .run(
                        "events",
                        () -> {
                            if (scope.machine().isVirtual() && w.processIntervalNanos() > 0) {
                                publishPaced(
                                        events,
                                        pc,
                                        scope.machine(),
                                        w.processIntervalNanos(),
                                        w.execDelayNanos(),
                                        () -> sockets.forEach(s -> pc.tell(new ProcConnector.Close(s))));
                                return;
                            }
                            ProcessTable.publish(events, pc, scope.machine()::nanoTime);
                            sockets.forEach(s -> pc.tell(new ProcConnector.Close(s)));
                        },
                        done,
                        received,
                        (long) events.size() * listeners.size());
        for (CompletionStage<Done> f : finished) {
            scope.await(f, "draining listeners"); // ended: a failed stream fails the run here
        }
        double wallS = (scope.machine().nanoTime() - start) / 1e9;
        ProcConnector.Stats stats =
                scope.<ProcConnector.Command, ProcConnector.Stats>ask(pc, ProcConnector.GetStats::new, "reading stats");

        LatencyRecorder latency = new LatencyRecorder();
        latencies.forEach(latency::add); // exact: the sums add, whatever the split
        DesignResultBuilder result = new DesignResultBuilder(design)
                .measure(ProcEventsWorkload.EVENT, latency)
                .counter("events_generated", stats.generated())
                .counter("events_delivered", stats.delivered())
                .counter("events_filtered", stats.filtered())
                .counter("events_dropped", stats.dropped());
        long lost = 0;
        long enobufs = 0;
        for (Map.Entry<String, ConnectorMonitor> l : listeners.entrySet()) {
            ConnectorMonitor m = l.getValue();
            result.measure(ProcEventsWorkload.BUSY + l.getKey(), single(m.busyNanos()))
                    .counter(l.getKey() + "_handled", m.handled())
                    .counter(l.getKey() + "_discarded", m.discarded());
            long wanted = events.stream().filter(m::wants).count();
            lost += m.lostWithoutEnobufs(wanted);
            enobufs += m.enobufs();
        }
        return result.invariants(
                        Invariants.NONE.with(LOST_WITHOUT_ENOBUFS, lost).with(ENOBUFS, enobufs))
                .build(stats.delivered(), "events delivered", wallS);
    }

    private DesignResult pidfd(Design design, DesignScope scope, List<ProcEvent> events, SyscallCost syscalls)
            throws RunFailure {
        PidfdMonitor monitor = new PidfdMonitor(syscalls);
        long start = scope.machine().nanoTime();
        LongAdder handled = new LongAdder();
        List<ProcEvent> seen = events.stream().filter(PidfdMonitor::sees).toList();
        CompletableFuture<Done> finished = new CompletableFuture<>();
        scope.phases()
                .run(
                        "events",
                        () -> SameThread.of(Source.from(seen)
                                        .runWith(
                                                handled(
                                                        scope.machine(),
                                                        counted(monitor::onEvent, handled),
                                                        monitor::busyNanos),
                                                scope.materializer()))
                                .whenComplete((d, e) -> {
                                    if (e != null) {
                                        finished.completeExceptionally(e);
                                    } else {
                                        finished.complete(d);
                                    }
                                }),
                        doneWhenAll(List.of(finished)),
                        handled,
                        seen.size());
        scope.await(finished, "the pidfd monitor");
        double wallS = (scope.machine().nanoTime() - start) / 1e9;
        long exits = exits(events);
        return new DesignResultBuilder(design)
                .measure(ProcEventsWorkload.BUSY + ProcEventsWorkload.PIDFD, single(monitor.busyNanos()))
                .counter("exits", exits)
                .counter("exits_detected", monitor.exitsDetected())
                .counter("abnormal_exits_detected", monitor.abnormalExits())
                .invariants(Invariants.NONE.with(LOST_WITHOUT_ENOBUFS, exits - monitor.exitsDetected()))
                .build(monitor.exitsDetected(), "exits detected", wallS);
    }

    /** Scans {@code proc-monitor.scans} times over the run, evenly spread over the events, and after the last. */
    private DesignResult procScan(Design design, DesignScope scope, List<ProcEvent> events, SyscallCost syscalls)
            throws RunFailure {
        ProcScanMonitor monitor = new ProcScanMonitor(design.model().proc().liveProcesses(), syscalls);
        LatencyRecorder scans = new LatencyRecorder("ms", 1e6);
        int every = Math.max(1, events.size() / design.model().proc().scans());
        long start = Clock.nanoTime();
        LongAdder applied = new LongAdder();
        CountDownLatch done = new CountDownLatch(1);
        // Run in the phase's starter actor (computation, no blocking), so the scans get a phase line and the
        // stall rule like the other workloads. Live, a scan's time is its wall time. Virtual, the monitor runs
        // alone and each scan's charged time runs on a simulated CPU before the next events are applied, so
        // the phase's simulated time is the scans' busy time.
        boolean virtual = scope.machine().isVirtual();
        scope.phases()
                .run(
                        "events and scans",
                        new Runnable() {
                            private int next;

                            @Override
                            public void run() {
                                while (next < events.size()) {
                                    int i = next++;
                                    monitor.apply(events.get(i));
                                    applied.increment();
                                    if ((i + 1) % every == 0 || i == events.size() - 1) {
                                        long scan = monitor.scan();
                                        scans.record(scan);
                                        if (virtual) {
                                            scope.machine().cpus().run(scan, this);
                                            return;
                                        }
                                    }
                                }
                                done.countDown();
                            }
                        },
                        done,
                        applied,
                        events.size());
        long busy = scans.sumNanos();
        double wallS = (virtual ? busy : Clock.nanoTime() - start) / 1e9;
        long exits = exits(events);
        return new DesignResultBuilder(design)
                .measure(ProcEventsWorkload.SCAN, scans)
                .measure(ProcEventsWorkload.BUSY + ProcEventsWorkload.PROC_SCAN, single(busy))
                .counter("exits", exits)
                .counter("exits_detected", monitor.exitsDetected())
                .counter("exits_missed", exits - monitor.exitsDetected()) // born and gone between two scans
                .counter("scans", scans.count())
                .counter("checksum", monitor.checksum() & 0xffff)
                .build(monitor.exitsDetected(), "exits detected", wallS);
    }

    /**
     * A monitor's handling of each element. Live: as it comes. Virtual: what the monitor is charged for
     * an element runs on a simulated CPU before it takes the next (one monitor thread: a blocking
     * recvmsg / epoll_wait loop), so its events flow in simulated time and monitors compete for the CPUs.
     */
    private static <T> Sink<T, CompletionStage<Done>> handled(Machine machine, Consumer<T> handle, LongSupplier busy) {
        return handled(machine, handle, busy, null, null, null);
    }

    /**
     * As {@link #handled(Machine, Consumer, LongSupplier)}, and: {@code onWake} runs before an element that
     * found the monitor asleep (its previous handling ended before the element came: a blocking recvmsg that
     * slept), not before one already queued when the previous ended; under the fair scheduler the handling
     * runs on the task of {@code owner} (named {@code name}).
     */
    private static <T> Sink<T, CompletionStage<Done>> handled(
            Machine machine, Consumer<T> handle, LongSupplier busy, Runnable onWake, Object owner, String name) {
        if (!machine.isVirtual()) {
            return Sink.foreach(handle::accept);
        }
        long[] lastDone = {Long.MIN_VALUE};
        return Flow.<T>create()
                .mapAsync(1, x -> {
                    long before = busy.getAsLong();
                    if (onWake != null && lastDone[0] < machine.nanoTime()) {
                        onWake.run();
                    }
                    handle.accept(x);
                    long charged = busy.getAsLong() - before;
                    CompletableFuture<Done> ran = new CompletableFuture<>();
                    if (charged == 0) {
                        lastDone[0] = machine.nanoTime();
                        ran.complete(Done.getInstance());
                    } else { // unjittered: the CPU time spent is the busy time reported
                        Runnable end = () -> {
                            lastDone[0] = machine.nanoTime();
                            ran.complete(Done.getInstance());
                        };
                        if (owner != null && machine.fair()) {
                            machine.cpus()
                                    .run(
                                            machine.taskFor(owner, name, org.netnslab.machine.CpuTask.Kind.LISTENER),
                                            org.netnslab.machine.Step.KERNEL,
                                            charged,
                                            end);
                        } else {
                            machine.cpus().run(charged, end);
                        }
                    }
                    return ran;
                })
                .toMat(Sink.ignore(), Keep.right());
    }

    /**
     * Virtual execution with {@code workload.process-interval}: process i's FORK at i x interval, its EXEC
     * {@code workload.exec-delay} later (0: with the fork; below half an interval), the EXIT beside them (of the process {@link
     * ProcessTable#WAVE} earlier) half an interval after the fork, so a listener that keeps up wakes once for each
     * (once for a fork and exec together without the delay) and once for an exit; then {@code after}. Past the last
     * fork each exit takes a step of its own; steps with no event are not counted (with fewer processes than the
     * wave, the exits follow the forks at once).
     */
    private static void publishPaced(
            List<ProcEvent> events,
            ActorRef<ProcConnector.Command> pc,
            Machine machine,
            long interval,
            long execDelay,
            Runnable after) {
        long forks = events.stream().filter(e -> e.what() == ProcEvents.FORK).count();
        long step = -1;
        long forksSeen = 0;
        List<ProcEvent> group = new ArrayList<>();
        long groupAt = -1;
        long last = 0;
        for (ProcEvent e : events) {
            long at;
            if (e.what() == ProcEvents.FORK) {
                step++;
                forksSeen++;
                at = step * interval;
            } else if (e.what() == ProcEvents.EXIT) {
                if (forksSeen == forks
                        && (group.isEmpty() || group.get(group.size() - 1).what() == ProcEvents.EXIT)) {
                    step++; // past the last fork: one exit per step
                }
                at = step * interval + interval / 2;
            } else {
                at = step * interval + (e.what() == ProcEvents.EXEC ? execDelay : 0);
            }
            if (at != groupAt && !group.isEmpty()) {
                schedulePublish(group, pc, machine, groupAt);
                group = new ArrayList<>();
            }
            groupAt = at;
            group.add(e);
            last = Math.max(last, at); // the latest event, whatever the list's order: the sockets close after it
        }
        if (!group.isEmpty()) {
            schedulePublish(group, pc, machine, groupAt);
        }
        machine.engine().schedule(last, after);
    }

    private static void schedulePublish(
            List<ProcEvent> group, ActorRef<ProcConnector.Command> pc, Machine machine, long at) {
        machine.engine().schedule(at, () -> ProcessTable.publish(group, pc, machine::nanoTime));
    }

    /** @return {@code handle}, counting each element in {@code count} once handled */
    private static <T> Consumer<T> counted(Consumer<T> handle, LongAdder count) {
        return x -> {
            handle.accept(x);
            count.increment();
        };
    }

    /** @return a latch opened once every stage has completed, however */
    private static CountDownLatch doneWhenAll(List<? extends CompletionStage<?>> stages) {
        CountDownLatch done = new CountDownLatch(stages.size());
        // On the completing thread (the engine's, virtual): Akka's own stages run the callback on a pool thread,
        // and an engine with nothing runnable meanwhile jumped to its next timer, so the phase's simulated time
        // was 0.002 s or 2.0 s from run to run (pidfd at --scale 0.01).
        stages.forEach(s -> SameThread.of(s).whenComplete((v, e) -> done.countDown()));
        return done;
    }

    private static long exits(List<ProcEvent> events) {
        return events.stream().filter(e -> e.what() == ProcEvents.EXIT).count();
    }

    /** One value (a whole-run total), recorded in ns and reported in ms. */
    private static LatencyRecorder single(long nanos) {
        LatencyRecorder r = new LatencyRecorder("ms", 1e6);
        r.record(nanos);
        return r;
    }
}
