package org.netnslab.workload.procevents;

import akka.Done;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AskPattern;
import akka.stream.javadsl.Sink;
import akka.stream.javadsl.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.netnslab.design.Design;
import org.netnslab.design.ProcSettings;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.Invariants;
import org.netnslab.metrics.LatencyRecorder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.proc.ProcConnector;
import org.netnslab.proc.ProcEvent;
import org.netnslab.proc.ProcEvents;
import org.netnslab.proc.ProcFilter;
import org.netnslab.proc.ProcReceived;
import org.netnslab.proc.ProcSubscription;
import org.netnslab.run.Phases;
import org.netnslab.run.RunFailure;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.userns.Credentials;
import org.netnslab.userns.UserNamespace;

/**
 * Runs the {@code proc-events} workload for one design: the same fork/exec/exit stream, learnt of by
 * proc connector listeners (filtered per listener or not), by one pidfd per process, or by scanning
 * the process table. Every monitor does the same work per event it handles (the process-state update
 * a monitor such as the seed's database process monitor does); what differs is how many events reach
 * it and what else it must do to learn of them.
 *
 * <p>Measures: {@code proc.listener_busy.<listener>} (ms of handling over the run, one value per
 * listener, or per monitor: {@code pidfd}, {@code proc-scan}), {@code proc.event} (generation to
 * receipt, us, connector only), {@code proc.scan} (ms per scan).
 */
public final class ProcEventsRun {
  private static final int FIRST_PID = 100_000;

  private final ActorSystem<?> system;
  private final RunSettings settings;
  private final Phases phases;
  private int runs;

  /**
   * @param system the actor system
   * @param settings timeouts
   * @param observer told of progress
   */
  public ProcEventsRun(ActorSystem<?> system, RunSettings settings, RunObserver observer) {
    this.system = system;
    this.settings = settings;
    this.phases = new Phases(system, settings, observer);
  }

  /** Events the process table hands the connector per message: a busy CPU's burst. */
  static final int BURST = 32;

  /** Processes alive at once: each exits after this many later processes have forked. */
  static final int WAVE = 1000;

  /**
   * The events {@code n} short-lived processes produce, deterministic: process i forks and execs,
   * and exits once process i + {@link #WAVE} has forked, so about {@link #WAVE} are alive at any time,
   * as on a busy host.
   */
  static List<ProcEvent> events(long n, double nonzeroFraction) {
    List<ProcEvent> out = new ArrayList<>();
    for (long i = 0; i < n + WAVE; i++) {
      if (i < n) {
        int pid = FIRST_PID + (int) i;
        out.add(new ProcEvent(ProcEvents.FORK, (int) (i % 2), 0, 0, pid, pid, 1, 0, 0));
        out.add(new ProcEvent(ProcEvents.EXEC, (int) (i % 2), 0, 0, pid, pid, 0, 0, 0));
      }
      long dying = i - WAVE;
      if (dying >= 0 && dying < n) {
        boolean nonzero = Math.floor((dying + 1) * nonzeroFraction) > Math.floor(dying * nonzeroFraction);
        // half of the abnormal deaths are exit(1), half are SIGKILL (wait status 9)
        int status = !nonzero ? 0 : (dying % 2 == 0 ? 1 << 8 : 9);
        int pid = FIRST_PID + (int) dying;
        out.add(new ProcEvent(ProcEvents.EXIT, (int) (dying % 2), 0, 0, pid, pid, 0, status, 17));
      }
    }
    return out;
  }

  /**
   * @param design the design
   * @param w the workload
   * @param scale multiplies the processes
   * @return the design's result
   * @throws RunFailure when the model does not answer in time
   */
  public DesignResult run(Design design, ProcEventsWorkload w, double scale) throws RunFailure {
    List<ProcEvent> events = events(w.scaledProcesses(scale), w.nonzeroExitFraction());
    switch (design.proc().monitor()) {
      case PIDFD:
        return pidfd(design, events);
      case PROC_SCAN:
        return procScan(design, events);
      default:
        return connector(design, w, events);
    }
  }

  /**
   * The simulated CPU time of {@code calls} system calls, ns. It is charged to the monitor's busy time
   * rather than spun: four listeners spinning on two cores would preempt each other and charge each
   * other's time, which is noise, not kernel work.
   */
  static long syscalls(long costNanos, int calls) {
    return costNanos * calls;
  }

  /** The work a monitor does per event it handles: keep each process's state, count abnormal exits. */
  static final class MonitorState {
    final Map<Integer, long[]> processes = new HashMap<>();
    long abnormalExits;
    long handled;

    void handle(ProcEvent e) {
      handled++;
      if (e.what() == ProcEvents.EXIT) {
        processes.remove(e.pid());
        if (e.isNonzeroExit()) {
          abnormalExits++;
        }
      } else {
        long[] st = processes.computeIfAbsent(e.pid(), p -> new long[2]);
        st[0] = e.what();
        st[1] = e.parentPid();
      }
    }
  }

  /** A connector listener: handles what it wants, discards the rest, times both. */
  private static final class Listener {
    final String name;
    final ProcSubscription wants;
    final StripedRecorder latency;
    final MonitorState state = new MonitorState();
    long busyNanos;
    long discarded;
    long enobufs;
    long dropped;

    final long syscallNanos;

    Listener(String name, int mask, StripedRecorder latency, long syscallNanos) {
      this.syscallNanos = syscallNanos;
      this.name = name;
      this.wants = new ProcSubscription(ProcEvents.MCAST_LISTEN, mask);
      this.latency = latency;
    }

    void onReceive(ProcReceived r) {
      long t0 = System.nanoTime();
      if (r instanceof ProcReceived.Enobufs e) {
        enobufs++;
        dropped += e.dropped();
        return;
      }
      ProcEvent e = ((ProcReceived.Event) r).event();
      busyNanos += syscalls(syscallNanos, 1); // recvmsg
      if (e.what() == ProcEvents.NONE) {
        busyNanos += System.nanoTime() - t0;
        return; // the subscription's ack
      }
      latency.record(t0 - e.timestampNanos());
      if (ProcFilter.delivers(wants, e)) {
        state.handle(e);
      } else {
        discarded++;
      }
      busyNanos += System.nanoTime() - t0;
    }
  }

  private DesignResult connector(Design design, ProcEventsWorkload w, List<ProcEvent> events) throws RunFailure {
    ProcSettings ps = design.proc();
    ActorRef<ProcConnector.Command> pc = system.systemActorOf(ProcConnector.create(ps.filter(), ps.accounting(),
        Runtime.getRuntime().availableProcessors()), "proc-connector-" + design.name() + "-" + (runs++), Props.empty());
    Credentials root = Credentials.root(UserNamespace.INIT, 0);
    StripedRecorder latency = new StripedRecorder();
    List<Listener> listeners = new ArrayList<>();
    List<Long> sockets = new ArrayList<>();
    List<CompletionStage<Done>> finished = new ArrayList<>();
    for (Map.Entry<String, Integer> l : w.listeners().entrySet()) {
      ProcConnector.JoinReply reply = phases.await(AskPattern.<ProcConnector.Command, ProcConnector.JoinReply>ask(pc,
          r -> new ProcConnector.Join(true, ps.queueCapacity(), r), settings.askTimeout(), system.scheduler()),
          design.name(), "joining the proc connector");
      ProcConnector.Joined joined = (ProcConnector.Joined) reply;
      phases.await(AskPattern.<ProcConnector.Command, Done>ask(pc, r -> new ProcConnector.Subscribe(joined.socket(),
          root, true, ProcSubscription.encode(ProcEvents.MCAST_LISTEN, l.getValue()), r), settings.askTimeout(),
          system.scheduler()), design.name(), "subscribing " + l.getKey());
      Listener listener = new Listener(l.getKey(), l.getValue(), latency, ps.syscallCost().toNanos());
      listeners.add(listener);
      sockets.add(joined.socket());
      finished.add(joined.events().runWith(Sink.foreach(listener::onReceive), system));
    }
    long start = System.nanoTime();
    List<ProcEvent> burst = new ArrayList<>(BURST);
    for (ProcEvent e : events) {
      burst.add(new ProcEvent(e.what(), e.cpu(), 0, System.nanoTime(), e.pid(), e.tgid(), e.parentPid(), e.exitCode(),
          e.exitSignal()));
      if (burst.size() == BURST) {
        pc.tell(new ProcConnector.PublishBurst(burst));
        burst = new ArrayList<>(BURST);
      }
    }
    if (!burst.isEmpty()) {
      pc.tell(new ProcConnector.PublishBurst(burst));
    }
    ProcConnector.Stats stats = phases.await(AskPattern.<ProcConnector.Command, ProcConnector.Stats>ask(pc,
        ProcConnector.GetStats::new, settings.askTimeout(), system.scheduler()), design.name(), "reading stats");
    sockets.forEach(s -> pc.tell(new ProcConnector.Close(s)));
    for (CompletionStage<Done> f : finished) {
      phases.await(f, design.name(), "draining listeners");
    }
    double wallS = (System.nanoTime() - start) / 1e9;

    Map<String, LatencyRecorder> measures = new LinkedHashMap<>();
    measures.put(ProcEventsWorkload.EVENT, latency.merged());
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("events_generated", stats.generated());
    counters.put("events_delivered", stats.delivered());
    counters.put("events_filtered", stats.filtered());
    counters.put("events_dropped", stats.dropped());
    long lost = 0;
    long enobufs = 0;
    for (Listener l : listeners) {
      measures.put(ProcEventsWorkload.BUSY + l.name, single(l.busyNanos));
      counters.put(l.name + "_handled", l.state.handled);
      counters.put(l.name + "_discarded", l.discarded);
      long wanted = events.stream().filter(e -> ProcFilter.delivers(l.wants, e)).count();
      lost += Math.max(0, wanted - l.state.handled - l.dropped);
      enobufs += l.enobufs;
    }
    return new DesignResult(design.name(), design.strategies(), measures, stats.delivered() / wallS, "events delivered",
        wallS, new Invariants(0, 0, lost, enobufs, 0, 0, 0, 0, 0), counters, List.of());
  }

  private DesignResult pidfd(Design design, List<ProcEvent> events) throws RunFailure {
    // The monitor's event loop: pidfd_open + epoll_ctl per fork, a wake-up + waitid + close per exit.
    Map<Integer, ProcEvent> watched = new HashMap<>();
    MonitorState state = new MonitorState();
    long[] busy = new long[1];
    long syscall = design.proc().syscallCost().toNanos();
    long start = System.nanoTime();
    phases.await(Source.from(events).filter(e -> e.what() != ProcEvents.EXEC).runWith(Sink.foreach(e -> {
      long t0 = System.nanoTime();
      long calls = 0;
      if (e.what() == ProcEvents.FORK) {
        calls = syscalls(syscall, 2); // pidfd_open(pid), EPOLL_CTL_ADD
        watched.put(e.pid(), e);
      } else if (watched.remove(e.pid()) != null) {
        calls = syscalls(syscall, 3); // epoll_wait wakes, waitid, close
        state.handle(e);
      }
      busy[0] += System.nanoTime() - t0 + calls;
    }), system), design.name(), "the pidfd monitor");
    double wallS = (System.nanoTime() - start) / 1e9;
    Map<String, LatencyRecorder> measures = new LinkedHashMap<>();
    measures.put(ProcEventsWorkload.BUSY + "pidfd", single(busy[0]));
    long exits = events.stream().filter(e -> e.what() == ProcEvents.EXIT).count();
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("exits", exits);
    counters.put("exits_detected", state.handled);
    counters.put("abnormal_exits_detected", state.abnormalExits);
    return new DesignResult(design.name(), design.strategies(), measures, state.handled / wallS, "exits detected",
        wallS, new Invariants(0, 0, exits - state.handled, 0, 0, 0, 0, 0, 0), counters, List.of());
  }

  private DesignResult procScan(Design design, List<ProcEvent> events) {
    long syscall = design.proc().syscallCost().toNanos();
    // /proc: the long-lived population plus the short-lived processes alive at the time of a scan.
    Map<Integer, long[]> table = new HashMap<>();
    for (int i = 0; i < design.proc().liveProcesses(); i++) {
      table.put(i + 2, new long[] {i, 1});
    }
    LatencyRecorder scans = new LatencyRecorder("ms", 1e6);
    Set<Integer> seen = new HashSet<>();
    long detected = 0;
    long checksum = 0;
    int every = Math.max(1, events.size() / design.proc().scans());
    long start = System.nanoTime();
    for (int i = 0; i < events.size(); i++) {
      ProcEvent e = events.get(i);
      if (e.what() == ProcEvents.FORK) {
        table.put(e.pid(), new long[] {e.pid(), e.parentPid()});
      } else if (e.what() == ProcEvents.EXIT) {
        table.remove(e.pid());
      }
      if ((i + 1) % every == 0 || i == events.size() - 1) {
        long t0 = System.nanoTime();
        long calls = 0;
        Set<Integer> now = new HashSet<>(table.size() * 2);
        for (Map.Entry<Integer, long[]> p : table.entrySet()) { // readdir + read /proc/<pid>/stat
          calls += syscalls(syscall, 3); // open, read, close
          now.add(p.getKey());
          checksum += p.getValue()[0] ^ p.getValue()[1];
        }
        for (Integer pid : seen) {
          if (!now.contains(pid)) {
            detected++; // gone since the last scan: an exit (its status is lost with the process)
          }
        }
        seen = now;
        scans.record(System.nanoTime() - t0 + calls);
      }
    }
    double wallS = (System.nanoTime() - start) / 1e9;
    Map<String, LatencyRecorder> measures = new LinkedHashMap<>();
    measures.put(ProcEventsWorkload.SCAN, scans);
    measures.put(ProcEventsWorkload.BUSY + "proc-scan",
        single(Math.round(scans.meanNanos() * scans.count())));
    long exits = events.stream().filter(e -> e.what() == ProcEvents.EXIT).count();
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("exits", exits);
    counters.put("exits_detected", detected);
    counters.put("exits_missed", exits - detected); // born and gone between two scans
    counters.put("scans", scans.count());
    counters.put("checksum", checksum & 0xffff);
    return new DesignResult(design.name(), design.strategies(), measures, detected / wallS, "exits detected", wallS,
        new Invariants(0, 0, 0, 0, 0, 0, 0, 0, 0), counters, List.of());
  }

  /**
   * The seed's ratios, computed from the designs present: busy(fork-exit) / busy(all) = 0.75 and
   * busy(exit) / busy(all) = 0.35 in the per-listener design, pidfd / busy(exit) = 2.9, and the mean
   * scan of the largest population over the smallest = 10 (100K over 8K PIDs).
   *
   * @param designs the run's results
   * @return the ratios that could be computed
   */
  public static List<org.netnslab.metrics.RunResult.DerivedRatio> seedRatios(List<DesignResult> designs) {
    List<org.netnslab.metrics.RunResult.DerivedRatio> out = new ArrayList<>();
    DesignResult filtered = designs.stream().filter(d -> d.strategies().get("proc-monitor.kind").equals("connector")
        && d.strategies().get("proc-connector.filter").equals("per-listener")).findFirst().orElse(null);
    if (filtered != null) {
      Double all = busy(filtered, "all");
      Double forkExit = busy(filtered, "fork-exit");
      Double exit = busy(filtered, "exit");
      if (all != null && forkExit != null) {
        out.add(new org.netnslab.metrics.RunResult.DerivedRatio(
            "busy(fork-exit) / busy(all), " + filtered.name(), forkExit / all, 0.75));
      }
      if (all != null && exit != null) {
        out.add(new org.netnslab.metrics.RunResult.DerivedRatio(
            "busy(exit) / busy(all), " + filtered.name(), exit / all, 0.35));
      }
      DesignResult pidfd = designs.stream().filter(d -> d.recorders().containsKey(ProcEventsWorkload.BUSY + "pidfd"))
          .findFirst().orElse(null);
      if (pidfd != null && exit != null) {
        out.add(new org.netnslab.metrics.RunResult.DerivedRatio("busy(pidfd) / busy(exit), " + pidfd.name() + " / "
            + filtered.name(), busy(pidfd, "pidfd") / exit, 2.9));
      }
    }
    List<DesignResult> scans = designs.stream().filter(d -> d.recorders().containsKey(ProcEventsWorkload.SCAN))
        .sorted(java.util.Comparator.comparing(d -> Integer.parseInt(d.strategies().get("proc-monitor.live-processes"))))
        .toList();
    if (scans.size() >= 2) {
      DesignResult small = scans.get(0);
      DesignResult large = scans.get(scans.size() - 1);
      out.add(new org.netnslab.metrics.RunResult.DerivedRatio("scan(" + large.name() + ") / scan(" + small.name() + ")",
          large.recorders().get(ProcEventsWorkload.SCAN).meanNanos()
              / small.recorders().get(ProcEventsWorkload.SCAN).meanNanos(), 10.0));
    }
    return out;
  }

  private static Double busy(DesignResult d, String listener) {
    LatencyRecorder r = d.recorders().get(ProcEventsWorkload.BUSY + listener);
    return r == null ? null : r.meanNanos();
  }

  /** One value (a whole-run total), recorded in ns and reported in ms. */
  private static LatencyRecorder single(long nanos) {
    LatencyRecorder r = new LatencyRecorder("ms", 1e6);
    r.record(nanos);
    return r;
  }
}
