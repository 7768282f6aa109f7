package org.netnslab.workload.scale;

import static org.netnslab.metrics.Invariants.Counter.LEAKED;
import static org.netnslab.metrics.Invariants.Counter.SOCK_INUSE_SUM;
import static org.netnslab.metrics.Invariants.Counter.USE_AFTER_FREE;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.design.Design;
import org.netnslab.machine.Clock;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LifecycleRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.netns.StandardPernetOps;
import org.netnslab.run.DesignResultBuilder;
import org.netnslab.run.DesignRunner;
import org.netnslab.run.DesignScope;
import org.netnslab.run.PhaseClock;
import org.netnslab.run.RunFailure;
import org.netnslab.uevent.Audience;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.Received;
import org.netnslab.uevent.Uevent;
import org.netnslab.workload.NetnsPopulation;
import org.netnslab.workload.injection.ListenerCheck;

/**
 * Runs the {@code netns-scale} workload for one design, in phases: <b>create</b> (copy_net_ns for the whole
 * population, all requested at once; the creator keeps only the handles of the netns that get a listener),
 * <b>listeners</b> (one listener bound to each of those), <b>broadcast</b> (one untagged kernel uevent, from
 * its send until the last init-owned listener has it), <b>tagged</b> (one tagged uevent for each netns of the
 * sample), <b>dismantle</b> (the listeners close their sockets, the creators release every netns, until the
 * last net_free). Then the leak check and the invariants. Measures: {@link NetnsScaleWorkload#CREATE},
 * {@link NetnsScaleWorkload#CLEANUP} and {@link NetnsScaleWorkload#DELIVERY} (ns); its counters are those of
 * docs/scale-and-heap.md. Rates and times are wall time live, simulated time virtual; the heap and RSS figures
 * are the JVM's either way.
 *
 * @param w the workload
 * @param scale multiplies the population
 */
public record NetnsScaleRun(NetnsScaleWorkload w, double scale) implements DesignRunner {
    /** Fewest netns for which heap_bytes_per_netns is reported (18 MB of netns against a reading's MB of noise). */
    public static final int MIN_NETNS_FOR_HEAP = 10_000;
    /** Fewest listeners for which heap_bytes_per_listener is reported (about 6 MB of listeners). */
    public static final int MIN_LISTENERS_FOR_HEAP = 1_000;

    @Override
    public DesignResult run(Design design, DesignScope scope) throws RunFailure {
        int n = w.netnsCount(scale);
        int usernsOwned = w.usernsOwned(scale);
        // the dismantle phase's progress and end (every netns freed), counted as the recorder counts each net_free
        LongAdder freedProgress = new LongAdder();
        CountDownLatch allFreed = new CountDownLatch(n);
        LifecycleRecorder rec = new LifecycleRecorder(() -> {
            freedProgress.increment();
            allFreed.countDown();
        });
        ActorRef<NamespaceSupervisor.Command> supervisor =
                scope.spawn(NamespaceSupervisor.create(design.model(), StandardPernetOps.all(), rec), "supervisor");
        long heapBefore = heapAfterGc();

        // create: the whole population requested at once from inside the actor system
        Created created = new Created(n);
        ActorRef<CreateResult> creator = scope.spawn(created.behavior(), "creator");
        long createNanos = scope.phases()
                .run(
                        "create",
                        () -> {
                            for (int i = 0; i < n; i++) {
                                supervisor.tell(new NamespaceSupervisor.CreateNetns(
                                        NetnsPopulation.owner(i, usernsOwned), creator));
                            }
                        },
                        created.done,
                        created.progress,
                        n);
        if (!created.failures.isEmpty()) {
            throw new RunFailure(design.name() + ": " + created.failures.size()
                    + " netns creation(s) failed, the first: " + created.failures.get(0));
        }
        // every netns told the supervisor SetupFinished before it answered the creator: asked now, the supervisor
        // answers once it has handled them all, so the heap is read with nothing in flight
        int live = scope.<NamespaceSupervisor.Command, Integer>ask(
                supervisor, NamespaceSupervisor.CountLive::new, "counting live netns");
        if (live != n) {
            throw new RunFailure(design.name() + ": " + n + " netns created but the supervisor holds " + live);
        }
        long heapNetns = heapAfterGc();
        List<NetnsHandle> withListener = created.kept;

        // listeners: one each on the share of netns
        PhaseClock clock = new PhaseClock();
        StripedRecorder delivery = new StripedRecorder();
        Deliveries deliveries = new Deliveries();
        List<ListenerCheck> checks = new ArrayList<>();
        List<NetnsPopulation.Listener> listeners = new ArrayList<>();
        long initListeners = 0;
        for (int i = 0; i < withListener.size(); i++) {
            NetnsHandle h = withListener.get(i);
            ListenerCheck check = new ListenerCheck(i, h.id(), h.initOwned(), clock, delivery);
            checks.add(check);
            listeners.add(NetnsPopulation.bind(
                    h,
                    design.model().uevent().listener(),
                    r -> {
                        check.onReceive(r);
                        deliveries.onReceive(r);
                    },
                    scope.materializer()));
            initListeners += h.initOwned() ? 1 : 0;
        }
        for (int i = 0; i < listeners.size(); i++) {
            checks.get(i).bound(scope.await(listeners.get(i).bound(), "binding listeners"));
        }
        long heapAll = heapAfterGc();

        // broadcast: one untagged kernel uevent to every netns owned by init_user_ns
        deliveries.expect(initListeners, 0);
        long sentNanos = clock.startCounted(scope.machine().nanoTime());
        CompletableFuture<CompletionStage<InjectResult>> broadcastSent = new CompletableFuture<>();
        scope.phases()
                .run(
                        "broadcast",
                        () -> broadcastSent.complete(scope.request(
                                supervisor,
                                r -> new NamespaceSupervisor.KernelUevent(
                                        "change", "/devices/system/cpu/cpu0", "cpu", Map.of(), -1, r))),
                        deliveries.untaggedDone,
                        deliveries.progress,
                        initListeners);
        sent(scope.await(scope.await(broadcastSent, "sending the broadcast"), "sending the broadcast"), design);
        long fanoutNanos = initListeners == 0 ? 0 : deliveries.lastUntaggedNanos.get() - sentNanos;

        // tagged: one kernel uevent for veth0 of each netns of the sample
        List<NetnsHandle> sample = sample(withListener, w.tagged(scale));
        deliveries.expect(0, sample.size());
        CompletableFuture<List<CompletionStage<InjectResult>>> taggedSent = new CompletableFuture<>();
        scope.phases()
                .run(
                        "tagged",
                        () -> {
                            List<CompletionStage<InjectResult>> replies = new ArrayList<>();
                            for (NetnsHandle h : sample) {
                                replies.add(scope.request(
                                        supervisor,
                                        r -> new NamespaceSupervisor.KernelUevent(
                                                "change",
                                                "/devices/virtual/net/veth0",
                                                "net",
                                                Map.of("INTERFACE", "veth0"),
                                                h.id(),
                                                r)));
                            }
                            taggedSent.complete(replies);
                        },
                        deliveries.taggedDone,
                        deliveries.progress,
                        sample.size());
        for (CompletionStage<InjectResult> reply : scope.await(taggedSent, "sending tagged uevents")) {
            sent(scope.await(reply, "sending tagged uevents"), design);
        }

        // dismantle: listeners close their sockets, then every netns is released, up to its net_free
        long dismantleStart = scope.machine().nanoTime();
        long leaked = NetnsPopulation.closeListeners(
                withListener,
                listeners.stream().map(NetnsPopulation.Listener::finished).toList(),
                scope);
        CompletableFuture<CompletionStage<Done>> released = new CompletableFuture<>();
        if (leaked == 0) {
            scope.phases()
                    .run(
                            "dismantle",
                            () -> released.complete(scope.request(supervisor, NamespaceSupervisor.ReleaseAll::new)),
                            allFreed,
                            freedProgress,
                            n);
            scope.await(scope.await(released, "dismantling netns"), "dismantling netns");
        } else { // not awaited: the netns an open listener holds will not be freed, and CountLive counts them
            scope.request(supervisor, NamespaceSupervisor.ReleaseAll::new);
        }
        long dismantleNanos = scope.machine().nanoTime() - dismantleStart;
        leaked += scope.<NamespaceSupervisor.Command, Integer>ask(
                supervisor, NamespaceSupervisor.CountLive::new, "counting live netns");

        DesignResultBuilder result = new DesignResultBuilder(design)
                .measure(NetnsScaleWorkload.CREATE, rec.create())
                .measure(NetnsScaleWorkload.CLEANUP, rec.cleanup());
        if (delivery.merged().count() > 0) {
            result.measure(NetnsScaleWorkload.DELIVERY, delivery.merged());
        }
        result.counter("netns", n).counter("listeners", withListener.size());
        rec.faultCounters(design.model().faults()).forEach(result::counter);
        // The heap readings are JVM-wide and move by megabytes between full GCs: below these populations the
        // difference is noise (even negative), so the figure is left out rather than reported.
        if (n >= MIN_NETNS_FOR_HEAP) {
            result.counter("heap_bytes_per_netns", (heapNetns - heapBefore) / n);
        }
        if (withListener.size() >= MIN_LISTENERS_FOR_HEAP) {
            result.counter("heap_bytes_per_listener", (heapAll - heapNetns) / withListener.size());
        }
        result.counter("creations_per_s", perSecond(n, createNanos))
                .counter("broadcast_fanout_us", fanoutNanos / 1000)
                .counter("broadcast_deliveries", deliveries.untagged.sum())
                .counter("tagged_deliveries", deliveries.tagged.sum())
                .counter("dismantles_per_s", perSecond(n, dismantleNanos))
                .counter("freed", rec.freed());
        long rss = peakRssKib();
        if (rss >= 0) {
            result.counter("peak_rss_kib", rss);
        }
        return result.invariants(invariants(checks, withListener, sample, rec, leaked))
                .build(n, "netns created", createNanos / 1e9);
    }

    /** The broadcast or a tagged uevent was refused: the model is broken, the run cannot go on. */
    private static void sent(InjectResult r, Design design) throws RunFailure {
        if (r instanceof InjectResult.Failed f) {
            throw new RunFailure(design.name() + ": a kernel uevent was refused: " + f);
        }
    }

    /** @return {@code count} netns of {@code from}, spread evenly over it */
    static List<NetnsHandle> sample(List<NetnsHandle> from, long count) {
        List<NetnsHandle> s = new ArrayList<>();
        for (long k = 0; k < count; k++) {
            s.add(from.get((int) (k * from.size() / count)));
        }
        return s;
    }

    private static long perSecond(long count, long nanos) {
        return nanos <= 0 ? 0 : Math.round(count / (nanos / 1e9));
    }

    /** @return the JVM's used heap after a full collection, B (MemoryMXBean) */
    private static long heapAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        memory.gc(); // a second full collection: what the first left for finalization or reference processing
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** @return VmHWM of /proc/self/status (peak resident set), KiB; -1 where unreadable (not Linux) */
    static long peakRssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1; // no procfs: the figure is left out, the run is not failed for it
        }
        return -1;
    }

    /**
     * Each listener expects the broadcast when its netns is init owned and one tagged uevent when its netns is
     * in the sample; the lifecycle's counters come from the recorder.
     */
    private static Invariants invariants(
            List<ListenerCheck> checks,
            List<NetnsHandle> withListener,
            List<NetnsHandle> sample,
            LifecycleRecorder rec,
            long leaked) {
        java.util.Set<Long> sampled = new java.util.HashSet<>();
        sample.forEach(h -> sampled.add(h.id()));
        return ListenerCheck.sum(checks, c -> {
                    NetnsHandle h = withListener.get(c.netnsIndex());
                    return (h.initOwned() ? 1 : 0) + (sampled.contains(h.id()) ? 1 : 0);
                })
                .invariants()
                .with(LEAKED, leaked)
                .with(USE_AFTER_FREE, rec.useAfterFreeCount())
                .with(SOCK_INUSE_SUM, rec.sockInuseSum());
    }

    /**
     * The creating side: gets every CreateResult, counts it, keeps the handles of the netns that get a
     * listener ({@link NetnsScaleWorkload#hasListener}) and drops the rest (the supervisor holds those netns).
     * Written by its actor only; read after {@link #done} has opened.
     */
    private final class Created {
        final CountDownLatch done;
        final LongAdder progress = new LongAdder();
        final List<NetnsHandle> kept = new ArrayList<>();
        final List<String> failures = new ArrayList<>();

        Created(int n) {
            done = new CountDownLatch(n);
        }

        Behavior<CreateResult> behavior() {
            return Behaviors.receiveMessage(r -> {
                if (r instanceof NetnsHandle h) {
                    if (w.hasListener(h.id())) {
                        kept.add(h);
                    }
                } else {
                    CreateResult.Failed f = (CreateResult.Failed) r;
                    failures.add("netns " + f.netnsId() + ": " + f.reason());
                }
                progress.increment();
                done.countDown();
                return Behaviors.same();
            });
        }
    }

    /** What every listener received, by kind, and when the last untagged one arrived. Thread-safe. */
    private static final class Deliveries {
        final LongAdder untagged = new LongAdder();
        final LongAdder tagged = new LongAdder();
        final LongAdder progress = new LongAdder();
        final AtomicLong lastUntaggedNanos = new AtomicLong();
        volatile CountDownLatch untaggedDone = new CountDownLatch(0);
        volatile CountDownLatch taggedDone = new CountDownLatch(0);

        /** Sets the deliveries the next phase waits for. */
        void expect(long untaggedCount, long taggedCount) {
            untaggedDone = new CountDownLatch((int) untaggedCount);
            taggedDone = new CountDownLatch((int) taggedCount);
        }

        void onReceive(Received r) {
            if (!(r instanceof Uevent u)) {
                return; // an ENOBUFS: the ListenerCheck counts it
            }
            if (u.audience().kind() == Audience.Kind.UNTAGGED) {
                lastUntaggedNanos.accumulateAndGet(Clock.nanoTime(), Math::max);
                untagged.increment();
                untaggedDone.countDown();
            } else {
                tagged.increment();
                taggedDone.countDown();
            }
            progress.increment();
        }
    }
}
