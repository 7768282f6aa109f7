package org.netnslab.workload.injection;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AskPattern;
import akka.japi.Pair;
import akka.stream.Materializer;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.design.Design;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.netns.CreateResult;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.netns.NetnsHandle;
import org.netnslab.run.PhaseClock;
import org.netnslab.run.Phases;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * Runs the {@code uevent-injection} workload for one design: creates the netns (user-namespace owned
 * ones each inside a new user namespace), binds the listeners, runs the warm-up and then the counted
 * injections with closed-loop injectors, dismantles everything and checks the invariants.
 *
 * <p>Measures: {@code uevent.transaction} (send to acknowledgement, ns, recorded by injectors) and
 * {@code uevent.delivery} (send to listener receipt, ns, recorded by listeners); counted phase only.
 */
public final class UeventInjectionRun {
  /** Measure: injector send to acknowledgement (the sendmsg analog). */
  public static final String TRANSACTION = "uevent.transaction";
  /** Measure: injector send to listener receipt. */
  public static final String DELIVERY = "uevent.delivery";
  /** The message each injector sends: a net device "change" as a udev test would forge it. */
  static final byte[] PAYLOAD = ("change@/devices/virtual/net/lo\0ACTION=change\0DEVPATH=/devices/virtual/net/lo\0"
      + "SUBSYSTEM=net\0INTERFACE=lo\0IFINDEX=1\0").getBytes(StandardCharsets.US_ASCII);

  private final ActorSystem<?> system;
  private final RunSettings settings;
  private final RunObserver observer;
  private final Phases phases;
  private int runs;

  /**
   * Starts every injector of a phase from inside the actor system. Told from the runner's thread, the
   * Start messages would sit in the dispatcher's external queue, which workers poll only when their
   * own queues are empty: each injector would then run its whole loop alone and the "parallel"
   * injectors would run one after the other. Told from an actor, all of them are runnable at once and
   * time-share the cores, as the seed's 1000 processes did.
   */
  private record StartPhase(Injector.Phase phase, List<ActorRef<Injector.Command>> injectors) {}

  /**
   * @param system the actor system the model runs on
   * @param settings timeouts and progress interval
   * @param observer told of progress
   */
  public UeventInjectionRun(ActorSystem<?> system, RunSettings settings, RunObserver observer) {
    this.system = system;
    this.settings = settings;
    this.observer = observer;
    this.phases = new Phases(system, settings, observer);
  }

  /**
   * @param design the design to run
   * @param w the workload
   * @param scale multiplies counted injections per netns
   * @return the design's result
   * @throws RunFailure when a model request times out or a phase stalls
   */
  public DesignResult run(Design design, UeventInjectionWorkload w, double scale) throws RunFailure {
    String tag = design.name() + "-" + (runs++);
    ActorRef<NamespaceSupervisor.Command> supervisor =
        system.systemActorOf(NamespaceSupervisor.create(design), "supervisor-" + tag, Props.empty());
    int n = w.netnsCount();
    long counted = w.countedPerNetns(scale);

    // copy_net_ns for each netns; the userns-owned ones each in a fresh user namespace whose creator
    // (kuid 100000 + i) injects as root inside it, as the seed's forked injectors did.
    List<CompletionStage<CreateResult>> creating = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      UserNamespace owner = i < w.usernsOwned() ? UserNamespace.INIT.createChild(i + 1, 100_000 + i) : UserNamespace.INIT;
      creating.add(ask(supervisor, r -> new NamespaceSupervisor.CreateNetns(owner, r)));
    }
    List<NetnsHandle> netns = new ArrayList<>();
    for (CompletionStage<CreateResult> c : creating) {
      CreateResult r = phases.await(c, design.name(), "creating netns");
      if (r instanceof CreateResult.Failed f) {
        throw new RunFailure(design.name() + ": creating netns " + f.netnsId() + " failed: " + f.reason());
      }
      netns.add((NetnsHandle) r);
    }

    PhaseClock clock = new PhaseClock();
    Materializer mat = Materializer.matFromSystem(system);
    StripedRecorder delivery = new StripedRecorder();
    StripedRecorder transactions = new StripedRecorder();
    List<ListenerCheck> checks = new ArrayList<>();
    List<CompletionStage<Done>> finished = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      NetnsHandle h = netns.get(i);
      for (int l = 0; l < w.listenersPerNetns(); l++) {
        ListenerCheck check = new ListenerCheck(i, h.id(), h.initOwned(), clock, delivery);
        Pair<CompletionStage<Done>, CompletionStage<Done>> p =
            h.uevents(design.listenerQueueCapacity()).toMat(Sink.foreach(check::onReceive), Keep.both()).run(mat);
        checks.add(check);
        finished.add(p.second());
        phases.await(p.first(), design.name(), "binding listeners");
      }
    }

    Collector collector = new Collector(n);
    LongAdder progress = new LongAdder();
    List<ActorRef<Injector.Command>> injectors = new ArrayList<>();
    List<List<Injector.Target>> plan = plan(netns, w, counted);
    for (int k = 0; k < plan.size(); k++) {
      injectors.add(system.systemActorOf(Injector.create(plan.get(k), PAYLOAD, n, collector, progress, transactions),
          "injector-" + tag + "-" + k, Props.empty()));
    }

    runPhase(design, Injector.Phase.WARMUP, "warm-up", injectors, collector, progress, w.warmupPerNetns() * n, null);
    long start = clock.startCounted();
    List<double[]> series = new ArrayList<>();
    runPhase(design, Injector.Phase.COUNTED, "counted", injectors, collector, progress, counted * n, series);
    long wallNanos = System.nanoTime() - start;
    injectors.forEach(i -> i.tell(Injector.Stop.INSTANCE));

    // Teardown: every netns released; listener streams complete once they have every queued message.
    phases.await(AskPattern.<NamespaceSupervisor.Command, Done>ask(supervisor, NamespaceSupervisor.ReleaseAll::new,
        settings.askTimeout(), system.scheduler()), design.name(), "dismantling netns");
    long leaked = 0;
    for (CompletionStage<Done> f : finished) {
      try {
        f.toCompletableFuture().get(settings.askTimeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        leaked++; // a listener still open after its netns was dismantled
      } catch (InterruptedException | ExecutionException e) {
        throw new RunFailure(design.name() + ": a listener stream failed", e);
      }
    }
    leaked += phases.await(ask(supervisor, NamespaceSupervisor.CountLive::new), design.name(), "counting live netns");

    long out = 0, dup = 0, lost = 0, enobufs = 0, cross = 0;
    for (ListenerCheck c : checks) {
      long expected = collector.sentPerNetns[c.netnsIndex()];
      long accounted = c.received() + c.dropped();
      out += c.outOfOrder();
      dup += Math.max(c.duplicates(), accounted - expected);
      lost += Math.max(0, expected - accounted);
      enobufs += c.enobufs();
      cross += c.crossNetns();
    }
    Map<String, LatencyRecorder> measures = new LinkedHashMap<>();
    LatencyRecorder tx = transactions.merged();
    LatencyRecorder rx = delivery.merged();
    measures.put(TRANSACTION, tx);
    if (rx.count() > 0) {
      measures.put(DELIVERY, rx);
    }
    double wallS = wallNanos / 1e9;
    return new DesignResult(design.name(), design.strategies(), measures, tx.count() / wallS, "transactions", wallS,
        new Invariants(out, dup, lost, enobufs, cross, collector.eperm, 0, leaked, 0), Map.of(), series);
  }

  /**
   * Assigns netns to injectors: with at least as many injectors as netns, injector k sends into netns
   * k mod n and the injectors of one netns split its count; with fewer, injector k sends into every
   * netns j with j mod injectors == k, round-robin.
   */
  static List<List<Injector.Target>> plan(List<NetnsHandle> netns, UeventInjectionWorkload w, long counted) {
    int n = netns.size();
    int inj = w.injectors();
    List<List<Injector.Target>> plan = new ArrayList<>();
    for (int k = 0; k < inj; k++) {
      plan.add(new ArrayList<>());
    }
    for (int j = 0; j < n; j++) {
      NetnsHandle h = netns.get(j);
      Credentials cred = Credentials.root(h.owner(), h.owner().ownerKuid());
      if (inj >= n) {
        int sharers = inj / n + (j < inj % n ? 1 : 0);
        for (int s = 0; s < sharers; s++) {
          plan.get(j + s * n).add(new Injector.Target(j, h.injectRoute(), cred,
              share(w.warmupPerNetns(), sharers, s), share(counted, sharers, s)));
        }
      } else {
        plan.get(j % inj).add(new Injector.Target(j, h.injectRoute(), cred, w.warmupPerNetns(), counted));
      }
    }
    return plan;
  }

  private static long share(long total, int parts, int index) {
    return total / parts + (index < total % parts ? 1 : 0);
  }

  private void runPhase(Design design, Injector.Phase phase, String label, List<ActorRef<Injector.Command>> injectors,
      Collector collector, LongAdder progress, long total, List<double[]> series) throws RunFailure {
    CountDownLatch done = collector.expect(phase, injectors.size());
    phases.run(design.name(), label, () -> injectors.forEach(i -> i.tell(new Injector.Start(phase))), done, progress,
        total, series);
  }

  private <T> CompletionStage<T> ask(ActorRef<NamespaceSupervisor.Command> to,
      akka.japi.function.Function<ActorRef<T>, NamespaceSupervisor.Command> msg) {
    return AskPattern.ask(to, msg, settings.askTimeout(), system.scheduler());
  }


  /**
   * Gathers the injectors' figures. Injectors call {@link #phaseDone} from their own threads; the
   * runner reads the totals after the phase's latch has opened, which orders the reads after the writes.
   */
  private static final class Collector implements Injector.PhaseListener {
    final long[] sentPerNetns;
    long eperm;
    private CountDownLatch latch;

    Collector(int netnsCount) {
      sentPerNetns = new long[netnsCount];
    }

    synchronized CountDownLatch expect(Injector.Phase phase, int injectors) {
      latch = new CountDownLatch(injectors);
      return latch;
    }

    @Override
    public synchronized void phaseDone(Injector.Phase phase, long[] sent, long eperm, long einval) {
      for (int i = 0; i < sent.length; i++) {
        sentPerNetns[i] += sent[i];
      }
      this.eperm += eperm;
      latch.countDown();
    }
  }
}
