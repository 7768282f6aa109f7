package org.netnslab.workload.soak;

import static org.netnslab.metrics.Invariants.Counter.EPERM;
import static org.netnslab.metrics.Invariants.Counter.LEAKED;
import static org.netnslab.metrics.Invariants.Counter.SOCK_INUSE_SUM;
import static org.netnslab.metrics.Invariants.Counter.USE_AFTER_FREE;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.stream.javadsl.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.netnslab.design.Design;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.StandardPernetOps;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcReceived;
import org.netnslab.proc.ProcSubscription;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.Phases;
import org.netnslab.run.RunFailure;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * Runs the {@code isolation-soak} workload for one design (live execution): rounds ({@link SoakRounds}) until
 * the scaled wall time has passed (the phase {@code soak}, its progress in seconds), churn tasks ({@link SoakChurn})
 * throughout, then everything dismantled, awaited at net_free and checked.
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
    @Override
    public DesignResult run(Design design, DesignScope scope) throws RunFailure {
        if (scope.machine().isVirtual()) {
            throw new RunFailure(
                    scope.design() + ": isolation-soak runs in live execution only (its soak time is wall time)");
        }
        LifecycleRecorder probe = new LifecycleRecorder(); // netns created and freed, sock_inuse at net_free, faults
        ActorRef<NamespaceSupervisor.Command> supervisor =
                scope.spawn(NamespaceSupervisor.create(design.model(), StandardPernetOps.all(), probe), "supervisor");
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
        SoakTotals t = new SoakTotals();
        SoakRounds rounds = new SoakRounds(w, design, scope, supervisor, levels, leafChild, transactions, delivery);
        Phases.Timed soak = scope.phases().timed("soak", start, wall); // its progress is time: a soak lasts a time
        boolean over;
        do {
            rounds.next(t);
            heap.maybeSample(t.rounds == 1);
            over = soak.step();
        } while (!over);
        soak.done();
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
        Invariants inv = t.listened
                .invariants()
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
                .counter(LifecycleRecorder.LISTENERS_FAILED_BY_FAULT, t.listenersFailed)
                .counter("deliveries", t.deliveries)
                .counter("injections_ok", t.injectionsOk)
                .counter("injections_eperm", t.injectionsEperm)
                .counter("unauthorised_sent", t.unauthorisedSent)
                .counter("unauthorised_delivered", t.unauthorisedDelivered)
                .counter("kernel_uevents_tagged", t.tagged)
                .counter("kernel_uevents_untagged", t.untagged)
                .counter("other_errors", t.otherErrors)
                .counter("eagain_retries", t.retries);
        probe.faultCounters().forEach(result::counter);
        result.counter("proc_events_published", procPublished)
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
}
