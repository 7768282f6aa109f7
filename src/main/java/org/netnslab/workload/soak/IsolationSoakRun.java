package org.netnslab.workload.soak;

import static org.netnslab.metrics.Invariants.Counter.CROSS_NETNS_DELIVERIES;
import static org.netnslab.metrics.Invariants.Counter.ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.EPERM;
import static org.netnslab.metrics.Invariants.Counter.LEAKED;
import static org.netnslab.metrics.Invariants.Counter.LOST_WITHOUT_ENOBUFS;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_DUPLICATES;
import static org.netnslab.metrics.Invariants.Counter.SEQNUM_OUT_OF_ORDER;
import static org.netnslab.metrics.Invariants.Counter.SOCK_INUSE_SUM;
import static org.netnslab.metrics.Invariants.Counter.USE_AFTER_FREE;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.japi.Pair;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import akka.stream.javadsl.Source;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.netnslab.design.Design;
import org.netnslab.fault.FaultSwitch;
import org.netnslab.fault.ModelFault;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.ReceiveQueue;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetNamespace;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.netns.StandardPernetOps;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcReceived;
import org.netnslab.proc.ProcSubscription;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.RunFailure;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.userns.Capability;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * Runs the {@code isolation-soak} workload for one design (live execution): rounds until the scaled
 * wall time has passed, churn tasks throughout, then everything dismantled and checked.
 *
 * <p>A round: netns owned at each level of the user namespace chain (init_user_ns, then each child
 * of the one above); in each, reading listeners and stalled ones (they take one message, then read
 * nothing until the round's end, on a small SO_RCVBUFFORCE buffer: ENOBUFS); four sender tasks per
 * netns, each a closed loop: root of the owner (permitted), root of the owner's parent that created
 * it (permitted: ns_capable over a child it owns), a task of the owner with no capabilities (EPERM),
 * root of a child of the owner (EPERM: no capability over an ancestor), as uevent_net_rcv_skb
 * (lib/kobject_uevent.c) decides with netlink_ns_capable(skb, net->user_ns, CAP_SYS_ADMIN); the
 * unauthorised tasks' messages carry a mark no listener may ever receive. Also a device task per netns
 * sending kernel uevents tagged for its veth0, and a task sending untagged kernel uevents, which
 * kobject_uevent_net_broadcast sends to every netns owned by init_user_ns. Then each listener reads
 * what is left and closes, and the netns are released and awaited at net_free.
 *
 * <p>Pass criteria, as invariants and counters: cross_netns_deliveries 0, eperm 0 (no unauthorised
 * injection sent, no authorised one refused) and unauthorised_delivered 0, lost_without_enobufs 0
 * (counted for listeners that ran to the end: a listener failed by the fault switch loses its queue
 * with its socket), leaked 0, sock_inuse_sum 0, heap_not_flat 0 ({@link HeapSamples}).
 *
 * @param w the workload
 * @param scale multiplies the wall time
 */
record IsolationSoakRun(IsolationSoakWorkload w, double scale) implements DesignRunner {
    /** An authorised task's message. */
    static final byte[] PAYLOAD = ("change@/devices/virtual/net/lo\0ACTION=change\0DEVPATH=/devices/virtual/net/lo\0"
                    + "SUBSYSTEM=net\0INTERFACE=lo\0")
            .getBytes(StandardCharsets.US_ASCII);
    /** An unauthorised task's message: carries {@link SoakListener#FORGED_MARK}. */
    static final byte[] FORGED = ("add@/devices/virtual/net/forged\0ACTION=add\0DEVPATH=/devices/virtual/net/forged\0"
                    + "SUBSYSTEM=net\0INTERFACE=forged\0")
            .getBytes(StandardCharsets.US_ASCII);

    /** The run's totals, summed over rounds. */
    private static final class Totals {
        long rounds;
        long roundNetns;
        long listeners;
        long stalled;
        long listenersFailed;
        long deliveries;
        long injectionsOk;
        long injectionsEperm;
        long unauthorisedSent;
        long authorisedRefused;
        long unauthorisedDelivered;
        long tagged;
        long untagged;
        long otherErrors;
        long retries;
        long enobufs;
        long cross;
        long lost;
        long outOfOrder;
        long duplicates;
    }

    @Override
    public DesignResult run(Design design, DesignScope scope) throws RunFailure {
        if (scope.machine().isVirtual()) {
            throw new RunFailure(
                    scope.design() + ": isolation-soak runs in live execution only (its soak time is wall time)");
        }
        LifecycleRecorder probe = new LifecycleRecorder(); // netns created and freed, sock_inuse at net_free, faults
        ActorRef<NamespaceSupervisor.Command> supervisor = scope.spawnModel(
                NamespaceSupervisor.create(design.model(), StandardPernetOps.all(), probe), "supervisor");
        List<UserNamespace> levels = new ArrayList<>();
        levels.add(UserNamespace.INIT);
        for (int l = 1; l <= w.usernsDepth(); l++) {
            levels.add(levels.get(l - 1).createChild(l, 1000 + l)); // created by kuid 1000 + l of the level above
        }
        UserNamespace leafChild = levels.get(levels.size() - 1).createChild(w.usernsDepth() + 1, 5000);

        ActorRef<ProcConnector.Command> proc =
                scope.ask(supervisor, NamespaceSupervisor.GetProcConnector::new, "getting the proc connector");
        ProcWatch procWatch = new ProcWatch();
        ProcConnector.Joined joined = (ProcConnector.Joined) scope.<ProcConnector.Command, ProcConnector.JoinReply>ask(
                proc, r -> new ProcConnector.Join(true, 65_536, r), "joining the proc connector");
        CompletionStage<Done> procDone =
                joined.events().runWith(Sink.foreach(procWatch::onReceive), scope.materializer());
        scope.<ProcConnector.Command, Done>ask(
                proc,
                r -> new ProcConnector.Subscribe(
                        joined.socket(),
                        Credentials.root(UserNamespace.INIT, 0),
                        true,
                        ProcSubscription.encode(ProcEvents.MCAST_LISTEN, ProcEvents.ALL),
                        r),
                "subscribing to proc events");

        StripedRecorder transactions = new StripedRecorder();
        StripedRecorder delivery = new StripedRecorder();
        List<CompletableFuture<SoakChurn.Tally>> churnDone = new ArrayList<>();
        List<Behavior<SoakChurn.Command>> churners = new ArrayList<>();
        for (int k = 0; k < w.churnTasks(); k++) {
            CompletableFuture<SoakChurn.Tally> d = new CompletableFuture<>();
            churnDone.add(d);
            churners.add(SoakChurn.create(supervisor, proc, levels, k, d));
        }
        List<ActorRef<SoakChurn.Command>> churn = scope.spawnEach(churners, "churn");

        long start = System.nanoTime();
        long wall = w.wallTime(scale).toNanos();
        HeapSamples heap = new HeapSamples(start, Math.max(1_000_000_000L, wall / 30));
        Totals t = new Totals();
        do {
            round(t, design, scope, supervisor, levels, leafChild, transactions, delivery);
            heap.maybeSample(t.rounds == 1);
        } while (System.nanoTime() - start < wall);
        churn.forEach(c -> c.tell(SoakChurn.Stop.INSTANCE));
        long churnCreated = 0, churnFreed = 0, churnFailed = 0, procPublished = 0;
        for (CompletableFuture<SoakChurn.Tally> d : churnDone) {
            SoakChurn.Tally tally = scope.await(d, "stopping the churn tasks");
            churnCreated += tally.created();
            churnFreed += tally.freed();
            churnFailed += tally.failed();
            procPublished += tally.procEvents();
        }
        long wallNanos = System.nanoTime() - start;
        heap.maybeSample(true);

        scope.<NamespaceSupervisor.Command, Done>ask(
                supervisor, NamespaceSupervisor.AwaitAllFreed::new, "awaiting net_free");
        long leaked = scope.<NamespaceSupervisor.Command, Integer>ask(
                supervisor, NamespaceSupervisor.CountLive::new, "counting live netns");
        ProcConnector.Stats procStats = scope.ask(proc, ProcConnector.GetStats::new, "reading proc connector stats");
        proc.tell(new ProcConnector.Close(joined.socket()));
        scope.await(procDone, "reading the last proc events");

        LatencyRecorder tx = transactions.merged();
        LatencyRecorder rx = delivery.merged();
        DesignResultBuilder result = new DesignResultBuilder(design).measure(IsolationSoakWorkload.TRANSACTION, tx);
        if (rx.count() > 0) {
            result.measure(IsolationSoakWorkload.DELIVERY, rx);
        }
        Invariants inv = Invariants.NONE
                .with(SEQNUM_OUT_OF_ORDER, t.outOfOrder)
                .with(SEQNUM_DUPLICATES, t.duplicates)
                .with(LOST_WITHOUT_ENOBUFS, t.lost)
                .with(ENOBUFS, t.enobufs)
                .with(CROSS_NETNS_DELIVERIES, t.cross)
                .with(EPERM, t.unauthorisedSent + t.authorisedRefused)
                .with(USE_AFTER_FREE, probe.useAfterFreeCount())
                .with(LEAKED, leaked)
                .with(SOCK_INUSE_SUM, probe.sockInuseSum());
        result.counter("rounds", t.rounds)
                .counter("netns_created", probe.create().count())
                .counter("netns_freed", probe.freed())
                .counter("netns_churned", churnCreated)
                .counter("churn_freed", churnFreed)
                .counter("churn_create_failed", churnFailed)
                .counter("listeners", t.listeners)
                .counter("listeners_stalled", t.stalled)
                .counter("listeners_failed_by_fault", t.listenersFailed)
                .counter("deliveries", t.deliveries)
                .counter("injections_ok", t.injectionsOk)
                .counter("injections_eperm", t.injectionsEperm)
                .counter("unauthorised_sent", t.unauthorisedSent)
                .counter("unauthorised_delivered", t.unauthorisedDelivered)
                .counter("kernel_uevents_tagged", t.tagged)
                .counter("kernel_uevents_untagged", t.untagged)
                .counter("other_errors", t.otherErrors)
                .counter("eagain_retries", t.retries)
                .counter("faults_netns_actor", probe.faults(FaultSwitch.NETNS_ACTOR))
                .counter("faults_listener", probe.faults(FaultSwitch.LISTENER))
                .counter("faults_cleanup_worker", probe.faults(FaultSwitch.CLEANUP_WORKER))
                .counter("faults_proc_connector", probe.faults(FaultSwitch.PROC_CONNECTOR))
                .counter("proc_events_published", procPublished)
                .counter("proc_events_generated", procStats.generated())
                .counter("proc_events_received", procWatch.events)
                .counter("proc_seq_gaps", procWatch.gaps)
                .counter("heap_samples", heap.count())
                .counter("heap_first_bytes", heap.first())
                .counter("heap_last_bytes", heap.last())
                .counter("heap_max_bytes", heap.max())
                .counter("heap_slope_bytes_per_min", heap.slopePerMinute())
                .counter("heap_growth_bytes", heap.growth())
                .counter("heap_tolerance_bytes", heap.tolerance())
                .counter("heap_not_flat", heap.notFlat() ? 1 : 0);
        return result.invariants(inv).build(t.injectionsOk + t.injectionsEperm, "injections", wallNanos / 1e9);
    }

    /** Proc events as a listener of everything sees them: count, and gaps in CPU 0's seq. */
    private static final class ProcWatch {
        long events;
        long gaps;
        private long last;

        void onReceive(ProcReceived r) {
            if (!(r instanceof ProcReceived.Event e) || e.event().what() == ProcEvents.NONE) {
                return; // an ENOBUFS would show as a gap; acks are not events
            }
            events++;
            long seq = e.event().seq();
            if (seq != last + 1) {
                gaps++;
            }
            last = seq;
        }
    }

    /** One sender task to spawn, with its answer. */
    private record Sender(
            Behavior<SoakSender.Command> behavior,
            CompletableFuture<SoakSender.Tally> done,
            boolean tagged,
            boolean untagged) {}

    /** One listener stream of the round. */
    private record Listening(SoakListener check, CompletionStage<Done> finished, CompletableFuture<Done> gate) {}

    private void round(
            Totals t,
            Design design,
            DesignScope scope,
            ActorRef<NamespaceSupervisor.Command> supervisor,
            List<UserNamespace> levels,
            UserNamespace leafChild,
            StripedRecorder transactions,
            StripedRecorder delivery)
            throws RunFailure {
        long round = ++t.rounds;
        List<UserNamespace> owners = new ArrayList<>();
        for (UserNamespace owner : levels) {
            for (int k = 0; k < w.netnsPerLevel(); k++) {
                owners.add(owner);
            }
        }
        List<NetnsHandle> netns = scope.createNetns(supervisor, owners);
        t.roundNetns += netns.size();

        SocketOptions reading = design.model().uevent().listener();
        SocketOptions small = new SocketOptions(w.stalledRcvbuf(), RcvbufOption.SO_RCVBUFFORCE, false);
        List<Listening> listening = new ArrayList<>();
        for (int i = 0; i < netns.size(); i++) {
            NetnsHandle h = netns.get(i);
            for (int l = 0; l < w.listenersPerNetns() + w.stalledPerNetns(); l++) {
                boolean stalled = l >= w.listenersPerNetns();
                SoakListener check = new SoakListener(i, h.id(), h.initOwned(), stalled, delivery);
                CompletableFuture<Done> gate = new CompletableFuture<>();
                Source<Received, CompletionStage<ReceiveQueue<Received>>> src = h.uevents(stalled ? small : reading);
                if (stalled) { // takes one message, then reads nothing until the gate opens at the round's end
                    src = src.mapAsync(1, r -> gate.thenApply(d -> r));
                } else {
                    gate.complete(Done.getInstance());
                }
                Pair<CompletionStage<ReceiveQueue<Received>>, CompletionStage<Done>> p =
                        src.toMat(Sink.foreach(check::onReceive), Keep.both()).run(scope.materializer());
                listening.add(new Listening(check, p.second(), gate));
                check.bound(scope.await(p.first(), "binding listeners"));
            }
        }

        List<Sender> senders = new ArrayList<>();
        for (int i = 0; i < netns.size(); i++) {
            NetnsHandle h = netns.get(i);
            UserNamespace owner = h.owner();
            int level = owner.level();
            List<Credentials> tasks = new ArrayList<>();
            tasks.add(Credentials.root(owner, owner.ownerKuid()));
            if (!owner.isInitial()) {
                tasks.add(Credentials.root(owner.parent(), owner.ownerKuid())); // the creator, in the parent
            }
            tasks.add(Credentials.unprivileged(owner, 4242));
            tasks.add(Credentials.root(level < levels.size() - 1 ? levels.get(level + 1) : leafChild, 0));
            for (Credentials c : tasks) {
                boolean permitted = c.nsCapable(owner, Capability.CAP_SYS_ADMIN);
                CompletableFuture<SoakSender.Tally> d = new CompletableFuture<>();
                senders.add(new Sender(
                        SoakSender.create(
                                h.injectRoute(),
                                c,
                                permitted ? PAYLOAD : FORGED,
                                i,
                                permitted,
                                w.injectionsPerSender(),
                                transactions,
                                d),
                        d,
                        false,
                        false));
            }
            if (w.taggedPerNetns() > 0) {
                CompletableFuture<SoakSender.Tally> d = new CompletableFuture<>();
                UeventRoute device = (sender, payload, sentNanos, replyTo) -> h.actor()
                        .tell(new NetNamespace.EmitTaggedUevent(
                                "change", "/devices/virtual/net/veth0", "net", Map.of("INTERFACE", "veth0"), replyTo));
                senders.add(new Sender(
                        SoakSender.create(device, null, PAYLOAD, i, true, w.taggedPerNetns(), null, d),
                        d,
                        true,
                        false));
            }
        }
        if (w.untaggedPerRound() > 0) {
            CompletableFuture<SoakSender.Tally> d = new CompletableFuture<>();
            UeventRoute kernel =
                    (sender, payload, sentNanos, replyTo) -> supervisor.tell(new NamespaceSupervisor.KernelUevent(
                            "change", "/devices/virtual/misc/soak", "misc", Map.of(), -1, replyTo));
            senders.add(new Sender(
                    SoakSender.create(kernel, null, PAYLOAD, -1, true, w.untaggedPerRound(), null, d), d, false, true));
        }
        List<Behavior<SoakSender.Command>> behaviors = new ArrayList<>();
        senders.forEach(s -> behaviors.add(s.behavior()));
        scope.spawnEach(behaviors, "r" + round + "-sender");

        long[] sentInto = new long[netns.size()];
        long untaggedSent = 0;
        for (Sender s : senders) {
            SoakSender.Tally tally = scope.await(s.done(), "round " + round + "'s sends");
            t.retries += tally.retries();
            t.otherErrors += tally.other();
            if (s.untagged()) {
                untaggedSent += tally.sent();
                t.untagged += tally.sent();
                continue;
            }
            sentInto[tally.netnsIndex()] += tally.sent();
            if (s.tagged()) {
                t.tagged += tally.sent();
                continue;
            }
            t.injectionsOk += tally.sent();
            t.injectionsEperm += tally.eperm();
            if (tally.permitted()) {
                t.authorisedRefused += tally.eperm();
            } else {
                t.unauthorisedSent += tally.sent();
            }
        }

        // The round's end: each listener reads what is left and closes its socket, then the creators release.
        listening.forEach(l -> l.gate().complete(Done.getInstance()));
        List<CompletionStage<Done>> closing = new ArrayList<>();
        for (NetnsHandle h : netns) {
            closing.add(scope.<NetNamespace.Command, Done>request(h.actor(), NetNamespace.CloseListeners::new));
        }
        for (CompletionStage<Done> c : closing) {
            scope.await(c, "closing round " + round + "'s listeners");
        }
        for (Listening l : listening) {
            SoakListener c = l.check();
            boolean failedByFault;
            try {
                scope.outcome(l.finished(), "round " + round + "'s listener streams");
                failedByFault = false;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof ModelFault)) {
                    throw new RunFailure(scope.design() + ": a listener stream failed: " + e.getCause(), e);
                }
                failedByFault = true;
            }
            t.listeners++;
            t.stalled += c.stalled ? 1 : 0;
            t.deliveries += c.received;
            t.enobufs += c.enobufs;
            t.cross += c.crossNetns;
            t.unauthorisedDelivered += c.forged;
            t.outOfOrder += c.outOfOrder;
            t.duplicates += c.duplicates;
            long expected = sentInto[c.netnsIndex] + (netns.get(c.netnsIndex).initOwned() ? untaggedSent : 0);
            t.duplicates += Math.max(0, c.received - expected); // more than was sent into its netns
            if (failedByFault) {
                t.listenersFailed++; // its socket went with its process: what was queued is gone, not lost silently
            } else {
                t.lost += c.lostWithoutEnobufs(expected);
            }
        }
        List<CompletionStage<Done>> releasing = new ArrayList<>();
        for (NetnsHandle h : netns) {
            releasing.add(scope.<NamespaceSupervisor.Command, Done>request(
                    supervisor, r -> new NamespaceSupervisor.ReleaseNetns(h.id(), r)));
        }
        for (CompletionStage<Done> r : releasing) {
            scope.await(r, "dismantling round " + round + "'s netns");
        }
    }
}
