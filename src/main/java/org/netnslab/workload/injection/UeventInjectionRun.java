package org.netnslab.workload.injection;

import static org.netnslab.metrics.Invariants.Counter.EPERM;
import static org.netnslab.metrics.Invariants.Counter.LEAKED;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.netnslab.design.Design;
import org.netnslab.machine.Clock;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Mutex;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.metrics.Losses;
import org.netnslab.metrics.SharingCounters;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.netns.StandardPernetOps;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.PhaseClock;
import org.netnslab.run.RunFailure;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.uevent.UeventSerialization;
import org.netnslab.uevent.UeventSocket;
import org.netnslab.userns.Capability;
import org.netnslab.userns.Credentials;
import org.netnslab.workload.NetnsPopulation;

/**
 * Runs the {@code uevent-injection} workload for one design: creates the netns (user-namespace owned
 * ones each inside a new user namespace), binds the listeners, runs the warm-up and then the counted
 * injections with closed-loop injectors, dismantles everything and checks the invariants.
 *
 * <p>Measures: {@link UeventInjectionWorkload#TRANSACTION} (send to acknowledgement, ns, recorded by
 * injectors) and {@link UeventInjectionWorkload#DELIVERY} (send to listener receipt, ns, recorded by
 * listeners); counted phase only.
 *
 * @param w the workload
 * @param scale multiplies counted injections per netns
 */
public record UeventInjectionRun(UeventInjectionWorkload w, double scale) implements DesignRunner {
    /** The message each injector sends: a net device "change" as a udev test would forge it. */
    static final byte[] PAYLOAD = ("change@/devices/virtual/net/lo\0ACTION=change\0DEVPATH=/devices/virtual/net/lo\0"
                    + "SUBSYSTEM=net\0INTERFACE=lo\0IFINDEX=1\0")
            .getBytes(StandardCharsets.US_ASCII);

    @Override
    public DesignResult run(Design design, DesignScope scope) throws RunFailure {
        LifecycleRecorder probe = new LifecycleRecorder(); // the faults the fault switches fired
        ActorRef<NamespaceSupervisor.Command> supervisor =
                scope.spawn(NamespaceSupervisor.create(design.model(), StandardPernetOps.all(), probe), "supervisor");
        int n = w.netnsCount();
        long counted = w.countedPerNetns(scale);
        List<NetnsHandle> netns = createNetns(supervisor, scope);

        PhaseClock clock = new PhaseClock();
        StripedRecorder delivery = new StripedRecorder();
        StripedRecorder transactions = new StripedRecorder();
        List<ListenerCheck> checks = new ArrayList<>();
        List<CompletionStage<Done>> finished = new ArrayList<>();
        List<ListenerReceives.Bound> bound = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            NetnsHandle h = netns.get(i);
            for (int l = 0; l < w.listenersPerNetns(); l++) {
                ListenerCheck check = new ListenerCheck(i, h.id(), h.initOwned(), clock, delivery);
                NetnsPopulation.Listener listener =
                        NetnsPopulation.bind(h, design.model().uevent().listener(), check::onReceive, scope);
                checks.add(check);
                finished.add(listener.finished());
                ReceiveQueue<Received> queue = scope.await(listener.bound(), "binding listeners");
                check.bound(queue);
                bound.add(new ListenerReceives.Bound(queue, h.id(), l));
            }
        }

        Collector collector = new Collector(n);
        LongAdder progress = new LongAdder();
        List<Behavior<Injector.Command>> behaviors = new ArrayList<>();
        for (List<Injector.Target> targets : plan(netns, w, w.warmupPerNetns(scale), counted)) {
            behaviors.add(Injector.create(targets, PAYLOAD, n, collector, progress, transactions));
        }
        long kernel = w.kernelUeventsPerNetns(scale);
        if (kernel > 0) { // one device task per netns; its send-to-ack times are not injections': not recorded
            StripedRecorder untimed = new StripedRecorder();
            for (int j = 0; j < n; j++) {
                behaviors.add(Injector.create(
                        List.of(new Injector.Target(j, taggedUevents(netns.get(j), design), null, true, 0, kernel)),
                        PAYLOAD,
                        n,
                        collector,
                        progress,
                        untimed));
            }
        }
        List<ActorRef<Injector.Command>> injectors = scope.spawnEach(behaviors, "injector");

        long warmup = w.warmupPerNetns(scale) * n;
        runPhase(scope, Injector.Phase.WARMUP, "warm-up", injectors, collector, progress, warmup, null);
        Machine machine = scope.machine();
        long start = clock.startCounted(machine.nanoTime());
        boolean fair = machine.fair();
        long listenerBefore = fair ? machine.cpuNanos(CpuTask.Kind.LISTENER) : 0;
        List<double[]> series = new ArrayList<>();
        runPhase(
                scope,
                Injector.Phase.COUNTED,
                "counted",
                injectors,
                collector,
                progress,
                (counted + kernel) * n,
                series);
        long wallNanos = machine.nanoTime() - start;
        long injectorCpu = collector.countedCpuNanos; // each injector's own, to its last send (not its exit)
        injectors.forEach(i -> i.tell(Injector.Stop.INSTANCE));
        if (fair && w.listenersWokenAtEnd()) {
            long stop = design.model().costs().uevent().listenerStop();
            scope.await(ListenerReceives.stop(machine, bound, stop), "waking the listeners at the end");
        }

        // Teardown: each listener reads what is left and closes its socket, dropping the netns reference
        // it held; then the creators release every netns (NetnsPopulation.dismantle).
        long leaked = NetnsPopulation.dismantle(supervisor, netns, finished, scope);
        long killed = 0;
        for (int i = 0; i < checks.size(); i++) { // the checks and the streams were added together, one a listener
            if (NetnsPopulation.failedByFault(finished.get(i))) {
                checks.get(i).killedByFault();
                killed++;
            }
        }
        // a listener's recvmsg may run after the injectors are done (a short load ends within one slice): its CPU
        // counts to the end of the teardown, when every listener has read what was sent, as a probe's CPU clock does
        long listenerCpu = fair ? machine.cpuNanos(CpuTask.Kind.LISTENER) - listenerBefore : 0;

        LatencyRecorder tx = transactions.merged();
        LatencyRecorder rx = delivery.merged();
        DesignResultBuilder result = new DesignResultBuilder(design).measure(UeventInjectionWorkload.TRANSACTION, tx);
        if (rx.count() > 0) {
            result.measure(UeventInjectionWorkload.DELIVERY, rx);
        }
        result.counter("warmup_injections", warmup);
        probe.faultCounters(design.model().faults()).forEach(result::counter);
        if (design.model().faults().listener() > 0) {
            result.counter(LifecycleRecorder.LISTENERS_FAILED_BY_FAULT, killed);
        }
        if (collector.refused > 0) { // only where the scenario sends without the capability: other results unchanged
            result.counter("refused_eperm", collector.refused);
        }
        if (collector.failed > 0) { // a fault switch's EAGAIN: the transactions count without them
            result.counter(Losses.INJECTIONS_FAILED, collector.failed);
        }
        if (fair) { // the simulated processes' CPU from the counted phase on, as a probe's CPU clocks give it
            result.counter("injector_cpu_us", injectorCpu / 1_000);
            result.counter("listener_cpu_us", listenerCpu / 1_000);
            // how the scheduler shared the CPUs out: cut at their slices, injectors end together at the end
            result.counter(SharingCounters.INJECTOR_PREEMPTIONS, collector.countedPreemptions);
            result.counter(SharingCounters.INJECTORS_ENDING_LAST_QUARTER, collector.endingLastQuarter(start));
        }
        return result.invariants(invariants(checks, collector, leaked))
                .throughputSeries(series)
                .build(tx.count(), "transactions", wallNanos / 1e9);
    }

    /**
     * A device task's route: each send is a kernel-generated {@code change} uevent for the netns's
     * {@code veth0} (kobject_uevent_env, tagged for that netns), sent as the design sends tagged events.
     * In virtual execution the device task runs it under the lock the design gives tagged events
     * ({@link UeventSerialization#taggedUnderGlobalLock}): the SEQNUM from the netns's socket's counter
     * ({@link UeventSocket#prepareTagged}), then uevent_net_broadcast_tagged's skb and broadcast.
     */
    private static UeventRoute taggedUevents(NetnsHandle h, Design design) {
        String devpath = "/devices/virtual/net/veth0";
        Map<String, String> keys = Map.of("INTERFACE", "veth0");
        UeventRoute live = (sender, payload, sentNanos, replyTo) ->
                h.actor().tell(new NetNamespace.EmitTaggedUevent("change", devpath, "net", keys, replyTo));
        UeventRoute.VirtualPath inject = h.injectRoute().virtualPath();
        if (inject == null) {
            return live;
        }
        UeventSerialization s = design.model().uevent().serialization();
        Function<Machine, Mutex> lock = s.taggedUnderGlobalLock(h.initOwned())
                ? UeventRoute.globalLock()
                : s == UeventSerialization.LOCKLESS ? m -> null : inject.lock();
        UeventSocket socket = inject.socket();
        return UeventRoute.charged(
                live,
                new UeventRoute.VirtualPath(
                        socket,
                        lock,
                        (sender, payload, sentNanos) -> socket.prepareTagged("change", devpath, "net", keys),
                        inject.costs()));
    }

    /**
     * copy_net_ns for each netns; the userns-owned ones each in a fresh user namespace whose creator
     * (kuid 100000 + i) injects as root inside it, as the seed's forked injectors did
     * ({@link NetnsPopulation#owner}).
     */
    private List<NetnsHandle> createNetns(ActorRef<NamespaceSupervisor.Command> supervisor, DesignScope scope)
            throws RunFailure {
        return scope.createNetns(supervisor, NetnsPopulation.owners(w.usernsOwned(), w.netnsCount()));
    }

    /**
     * What the listeners saw against what the injectors sent into their netns: order, duplicates (or
     * more received than sent), loss not explained by a received ENOBUFS or NETLINK_NO_ENOBUFS
     * ({@link ListenerCheck#lostWithoutEnobufs}), isolation; plus EPERM refusals and leaks.
     */
    private static Invariants invariants(List<ListenerCheck> checks, Collector collector, long leaked) {
        return ListenerCheck.sum(checks, c -> collector.sentPerNetns[c.netnsIndex()])
                .invariants()
                .with(EPERM, collector.eperm)
                .with(LEAKED, leaked);
    }

    /**
     * Assigns netns to injectors: with at least as many injectors as netns, injector k sends into netns
     * k mod n and the injectors of one netns split its count; with fewer, injector k sends into every
     * netns j with j mod injectors == k, round-robin.
     */
    static List<List<Injector.Target>> plan(
            List<NetnsHandle> netns, UeventInjectionWorkload w, long warmup, long counted) {
        int n = netns.size();
        int inj = w.injectors();
        List<List<Injector.Target>> plan = new ArrayList<>();
        for (int k = 0; k < inj; k++) {
            plan.add(new ArrayList<>());
        }
        for (int j = 0; j < n; j++) {
            NetnsHandle h = netns.get(j);
            Credentials cred = w.injectorsPrivileged()
                    ? Credentials.root(h.owner(), h.owner().ownerKuid())
                    : Credentials.unprivileged(h.owner(), h.owner().ownerKuid() + 1);
            boolean permitted = cred.nsCapable(h.owner(), Capability.CAP_SYS_ADMIN);
            if (inj >= n) {
                int sharers = inj / n + (j < inj % n ? 1 : 0);
                for (int s = 0; s < sharers; s++) {
                    plan.get(j + s * n)
                            .add(new Injector.Target(
                                    j,
                                    h.injectRoute(),
                                    cred,
                                    permitted,
                                    share(warmup, sharers, s),
                                    share(counted, sharers, s)));
                }
            } else {
                plan.get(j % inj).add(new Injector.Target(j, h.injectRoute(), cred, permitted, warmup, counted));
            }
        }
        return plan;
    }

    private static long share(long total, int parts, int index) {
        return total / parts + (index < total % parts ? 1 : 0);
    }

    private void runPhase(
            DesignScope scope,
            Injector.Phase phase,
            String label,
            List<ActorRef<Injector.Command>> injectors,
            Collector collector,
            LongAdder progress,
            long total,
            List<double[]> series)
            throws RunFailure {
        CountDownLatch done = collector.expect(phase, injectors.size());
        // Scaled with --scale, as each injector's run length is: the overlap of the seed's injectors is kept.
        long interval = scope.machine().isVirtual() ? Math.round(w.injectorStartIntervalNanos() * scale) : 0;
        Runnable start = () -> {
            long at = 0;
            for (int k = 0; k < injectors.size(); k++) {
                ActorRef<Injector.Command> i = injectors.get(k);
                if (interval == 0 || k == 0) {
                    i.tell(new Injector.Start(phase));
                } else { // the seed's shell loop forked its injectors one after another, each fork a little different
                    at += scope.machine().jittered(interval);
                    scope.machine().engine().schedule(at, () -> i.tell(new Injector.Start(phase)));
                }
            }
        };
        scope.phases().run(label, start, done, progress, total, series);
    }

    /**
     * Gathers the injectors' figures. Injectors call {@link #phaseDone} from their own threads; the
     * runner reads the totals after the phase's latch has opened, which orders the reads after the writes.
     */
    private static final class Collector implements Injector.PhaseListener {
        final long[] sentPerNetns;
        /** Injections whose EPERM outcome disagrees with the capability rule: the {@code eperm} invariant. */
        long eperm;
        /** Injections refused with EPERM as the capability rule says, over both phases. */
        long refused;
        /** Counted injections that failed otherwise (EAGAIN, EINVAL): missing from the counted figures. */
        long failed;

        private CountDownLatch latch;

        Collector(int netnsCount) {
            sentPerNetns = new long[netnsCount];
        }

        /** The injectors' CPU over the counted phase, each to its last send, ns (fair). */
        long countedCpuNanos;

        synchronized CountDownLatch expect(Injector.Phase phase, int injectors) {
            latch = new CountDownLatch(injectors);
            return latch;
        }

        /** The injectors' preemptions over the counted phase (fair). */
        long countedPreemptions;
        /** When each injector finished its counted sends, on the run's clock. */
        final List<Long> countedEnds = new ArrayList<>();

        @Override
        public synchronized void phaseDone(PhaseTotals d) {
            if (d.phase() == Injector.Phase.COUNTED) {
                countedCpuNanos += d.cpuNanos();
                countedPreemptions += d.preemptions();
                failed += d.failed();
                countedEnds.add(Clock.nanoTime());
            }
            for (int i = 0; i < d.sentPerNetns().length; i++) {
                sentPerNetns[i] += d.sentPerNetns()[i];
            }
            eperm += d.permissionViolations();
            refused += d.refused();
            latch.countDown();
        }

        /**
         * @param start the counted phase's start, ns on the run's clock
         * @return the injectors that finished in the last quarter of the span from {@code start} to the last one's
         *     end (uevent_probe's {@code injector_ends_q4}: with all of them in it, they ran together to the end)
         */
        synchronized long endingLastQuarter(long start) {
            long last = countedEnds.stream().mapToLong(Long::longValue).max().orElse(start);
            return countedEnds.stream()
                    .filter(t -> 4 * (t - start) >= 3 * (last - start))
                    .count();
        }
    }
}
