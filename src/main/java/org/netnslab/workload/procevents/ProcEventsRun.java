package org.netnslab.workload.procevents;

import static org.netnslab.metrics.Invariants.Counter.LOST_WITHOUT_ENOBUFS;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.stream.javadsl.Source;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.design.Design;
import org.netnslab.machine.Clock;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.SameThread;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.Losses;
import org.netnslab.proc.ConnectorMonitor;
import org.netnslab.proc.PidfdMonitor;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcScanMonitor;
import org.netnslab.proc.ProcSettings;
import org.netnslab.proc.ProcSubscriber;
import org.netnslab.proc.ProcSubscription;
import org.netnslab.proc.ProcessTable;
import org.netnslab.proc.SyscallCost;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;
import org.netnslab.workload.ListenerInvariants;

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
        List<ProcEvent> events =
                ProcessTable.shortLived(w.scaledProcesses(scale), w.nonzeroExitFraction(), w.exitAfterForks());
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

    /** The live run's untimed pass's phase label. */
    static final String WARM_UP = "warm-up";

    /**
     * The connector monitors' run. Live, the same events first go once through a connector and listeners of their
     * own, untimed and left out of every figure: the JIT compiles the path there, so the counted pass of a fresh JVM
     * runs compiled code (its 0.3-0.5 s phase at {@code --scale 10} is otherwise mostly the interpreter's).
     */
    private DesignResult connector(Design design, DesignScope scope, List<ProcEvent> events, SyscallCost syscalls)
            throws RunFailure {
        if (!scope.machine().isVirtual()) {
            connectorPass(design, scope, events, syscalls, "proc-connector-warm-up", WARM_UP);
        }
        return connectorPass(design, scope, events, syscalls, "proc-connector", "events");
    }

    private DesignResult connectorPass(
            Design design,
            DesignScope scope,
            List<ProcEvent> events,
            SyscallCost syscalls,
            String connectorName,
            String phase)
            throws RunFailure {
        ProcSettings ps = design.model().proc();
        ActorRef<ProcConnector.Command> pc = scope.spawn(
                ProcConnector.create(
                        ps.filter(),
                        ps.accounting(),
                        Runtime.getRuntime().availableProcessors(),
                        design.model().netlink()),
                connectorName);
        Credentials root = Credentials.root(UserNamespace.INIT, 0);
        // One recorder per listener, written only by its stream and merged once every stream has ended: a
        // shared striped recorder would cost a thread-local lookup per event.
        List<LatencyRecorder> latencies = new ArrayList<>();
        Map<String, ConnectorMonitor> listeners = new LinkedHashMap<>();
        List<Long> sockets = new ArrayList<>();
        List<CompletionStage<Done>> finished = new ArrayList<>();
        LongAdder received = new LongAdder();
        // a connector that ignores a masked subscription (before v6.6) is subscribed to for everything; each
        // listener keeps what it wants itself
        boolean masked = ProcSubscription.takesMask(ps.accounting());
        for (Map.Entry<String, Integer> l : w.listeners().entrySet()) {
            ProcConnector.Joined joined = scope.await(
                    ProcSubscriber.listen(
                            pc,
                            root,
                            masked ? l.getValue() : null,
                            ps.listener(),
                            DesignScope.REQUEST_LIMIT,
                            scope.scheduler()),
                    "joining the proc connector and subscribing " + l.getKey());
            LatencyRecorder latency = new LatencyRecorder();
            latencies.add(latency);
            ConnectorMonitor listener = new ConnectorMonitor(
                    l.getValue(), syscalls, latency::record, scope.machine().isVirtual());
            listener.bound(joined.queue());
            listeners.put(l.getKey(), listener);
            sockets.add(joined.socket());
            long wakeup = scope.machine().isVirtual()
                    ? design.model().costs().proc().wakeup().toNanos()
                    : 0;
            Machine machine = scope.machine();
            finished.add(joined.events()
                    .runWith(
                            MonitorSinks.handled(
                                    machine,
                                    MonitorSinks.counted(listener::onReceive, received),
                                    listener::busyNanos,
                                    () -> listener.onWakeup(machine.jittered(wakeup)),
                                    listener,
                                    taskName(l.getKey()),
                                    listener::received),
                            scope.materializer()));
        }
        long start = scope.machine().nanoTime();
        // One phase: publish every event, then close the sockets (told after the events, from the same actor:
        // each listener drains what it was sent first); done when every listener stream has ended. Progress:
        // events the listeners received, of every event for every listener or, where the connector filters
        // before delivery, of those each listener's subscription wants (drops, ENOBUFS, take some).
        long toReceive = ProcConnector.sendsOnlyWanted(ps.filter(), ps.accounting())
                ? listeners.values().stream()
                        .mapToLong(m -> events.stream().filter(m::wants).count())
                        .sum()
                : (long) events.size() * listeners.size();
        CountDownLatch done = doneWhenAll(finished);
        scope.phases()
                .run(
                        phase,
                        () -> {
                            if (scope.machine().isVirtual() && w.processIntervalNanos() > 0) {
                                PacedEvents.publish(
                                        events,
                                        pc,
                                        scope.machine(),
                                        w.processIntervalNanos(),
                                        w.execDelayNanos(),
                                        design.model()
                                                .costs()
                                                .proc()
                                                .exitSwitch()
                                                .toNanos(),
                                        () -> sockets.forEach(s -> pc.tell(new ProcConnector.Close(s))));
                                return;
                            }
                            ProcessTable.publish(events, pc, scope.machine()::nanoTime);
                            sockets.forEach(s -> pc.tell(new ProcConnector.Close(s)));
                        },
                        done,
                        received,
                        toReceive);
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
                .counter(Losses.EVENTS_DROPPED, stats.dropped());
        ListenerInvariants invariants = ListenerInvariants.NONE;
        for (Map.Entry<String, ConnectorMonitor> l : listeners.entrySet()) {
            ConnectorMonitor m = l.getValue();
            // its CPU clock also counts the switches it finished after an exiting process ({@code exit-switch})
            long deadFinish = scope.machine().fair()
                    ? scope.machine()
                            .taskFor(m, () -> taskName(l.getKey()), CpuTask.Kind.LISTENER)
                            .deadFinishNanos()
                    : 0;
            result.measure(ProcEventsWorkload.BUSY + l.getKey(), single(m.busyNanos() + deadFinish))
                    .counter(l.getKey() + "_handled", m.handled())
                    .counter(l.getKey() + "_discarded", m.discarded());
            long wanted = events.stream().filter(m::wants).count();
            invariants = invariants.plus(ListenerInvariants.losses(m.lostWithoutEnobufs(wanted), m.enobufs()));
        }
        return result.invariants(invariants.invariants()).build(stats.delivered(), ProcEventsWorkload.DELIVERED, wallS);
    }

    private DesignResult pidfd(Design design, DesignScope scope, List<ProcEvent> events, SyscallCost syscalls)
            throws RunFailure {
        PidfdMonitor monitor = new PidfdMonitor(syscalls);
        long start = scope.machine().nanoTime();
        LongAdder handled = new LongAdder();
        List<ProcEvent> seen = events.stream().filter(PidfdMonitor::sees).toList();
        CompletableFuture<Done> finished = new CompletableFuture<>();
        boolean paced = scope.machine().isVirtual() && w.processIntervalNanos() > 0;
        scope.phases()
                .run(
                        "events",
                        () -> SameThread.of((paced
                                                ? PacedMonitors.paced(
                                                        scope.machine(),
                                                        events,
                                                        PacedEvents.times(
                                                                events, w.processIntervalNanos(), w.execDelayNanos()),
                                                        PidfdMonitor::sees)
                                                : Source.from(seen))
                                        .runWith(
                                                MonitorSinks.handled(
                                                        scope.machine(),
                                                        MonitorSinks.counted(monitor::onEvent, handled),
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

    /**
     * Scans {@code proc-monitor.scans} times over the run, evenly spread over the events, and after the last; with
     * fewer events than scans, the scans left run after the last event (a scan of a steady process table). Virtual
     * and paced ({@code workload.process-interval}), the events come at the connector designs' times and a scan that
     * falls behind delays the next ({@link PacedMonitors#scan}).
     */
    private DesignResult procScan(Design design, DesignScope scope, List<ProcEvent> events, SyscallCost syscalls)
            throws RunFailure {
        ProcScanMonitor monitor = new ProcScanMonitor(design.model().proc().liveProcesses(), syscalls);
        LatencyRecorder scans = new LatencyRecorder("ms", 1e6);
        int target = design.model().proc().scans();
        long start = Clock.nanoTime();
        LongAdder applied = new LongAdder();
        CountDownLatch done = new CountDownLatch(1);
        // Run in the phase's starter actor (computation, no blocking), so the scans get a phase line and the
        // stall rule like the other workloads (unpacedScans; paced, PacedMonitors.scan).
        boolean virtual = scope.machine().isVirtual();
        long vstart = scope.machine().nanoTime();
        boolean paced = virtual && w.processIntervalNanos() > 0;
        scope.phases()
                .run(
                        "events and scans",
                        paced
                                ? () -> PacedMonitors.scan(
                                        scope.machine(),
                                        monitor,
                                        events,
                                        PacedEvents.times(events, w.processIntervalNanos(), w.execDelayNanos()),
                                        target,
                                        scans::record,
                                        applied::increment,
                                        done::countDown)
                                : unpacedScans(monitor, events, target, scans, applied, done, scope.machine()),
                        done,
                        applied,
                        events.size());
        long busy = scans.sumNanos();
        // unpaced virtual: the monitor runs alone, so its simulated time is the scans' busy time
        double wallS = (paced ? scope.machine().nanoTime() - vstart : virtual ? busy : Clock.nanoTime() - start) / 1e9;
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
     * The unpaced scanner: applies the events in order, a scan after each {@link PacedMonitors#scanEvery}-th of them
     * and after the last, then the scans left. Live, a scan's time is its wall time; virtual, each scan's time runs on
     * a simulated CPU before the next events are applied.
     */
    private static Runnable unpacedScans(
            ProcScanMonitor monitor,
            List<ProcEvent> events,
            int target,
            LatencyRecorder scans,
            LongAdder applied,
            CountDownLatch done,
            Machine machine) {
        int every = PacedMonitors.scanEvery(events.size(), target);
        boolean virtual = machine.isVirtual();
        return new Runnable() {
            private int next;
            private int scanned;

            @Override
            public void run() {
                while (next < events.size() || scanned < target) {
                    if (next == events.size()) { // the events are all applied: the scans left
                        if (scanned()) {
                            return;
                        }
                        continue;
                    }
                    int i = next++;
                    monitor.apply(events.get(i));
                    applied.increment();
                    if ((i + 1) % every == 0 || i == events.size() - 1) {
                        if (scanned()) {
                            return;
                        }
                    }
                }
                done.countDown();
            }

            /** One scan; virtual, its time runs on a CPU and this goes on after it: true, return. */
            private boolean scanned() {
                scanned++;
                long scan = monitor.scan();
                scans.record(scan);
                if (virtual) {
                    machine.cpus().run(scan, this);
                    return true;
                }
                return false;
            }
        };
    }

    /** @return a latch opened once every stage has completed, however */
    private static CountDownLatch doneWhenAll(List<? extends CompletionStage<?>> stages) {
        CountDownLatch done = new CountDownLatch(stages.size());
        // On the completing thread (the engine's, virtual): Akka's own stages would run the callback on a pool
        // thread, and an engine with nothing runnable meanwhile would jump to its next timer, so the phase's
        // simulated time would differ from run to run.
        stages.forEach(s -> SameThread.of(s).whenComplete((v, e) -> done.countDown()));
        return done;
    }

    private static long exits(List<ProcEvent> events) {
        return events.stream().filter(e -> e.what() == ProcEvents.EXIT).count();
    }

    /** @return the name of the machine task a listener's handling runs on */
    private static String taskName(String listener) {
        return "proc-listener-" + listener;
    }

    /** One value (a whole-run total), recorded in ns and reported in ms. */
    private static LatencyRecorder single(long nanos) {
        LatencyRecorder r = new LatencyRecorder("ms", 1e6);
        r.record(nanos);
        return r;
    }
}
