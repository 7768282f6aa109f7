package org.netnslab.workload.procevents;

import static org.junit.Assert.assertEquals;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.Test;
import org.netnslab.machine.VirtualSystem;
import org.netnslab.metrics.DesignResult;
import org.netnslab.metrics.RunResult;
import org.netnslab.run.RunObserver;
import org.netnslab.run.RunSettings;
import org.netnslab.scenario.Scenario;
import org.netnslab.scenario.ScenarioLoader;
import org.netnslab.scenario.ScenarioRunner;
import org.scalatestplus.junit.JUnitSuite;

/** The process monitors in virtual time: busy time is exactly what costs.proc charges. */
public class VirtualProcEventsTest extends JUnitSuite {
  private static final RunSettings SETTINGS =
      new RunSettings(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMillis(200));

  private static double busyMs(DesignResult d, String monitor) {
    return d.recorders().get(ProcEventsWorkload.BUSY + monitor).meanNanos() / 1e6;
  }

  @Test
  public void monitorsAreChargedTheirCostsPerEventExactly() throws Exception {
    // 80 processes (fork, exec, exit each), no jitter. A listener receives each event it wants, recvmsg
    // 8333 ns each; the subscription's ack (PROC_EVENT_NONE) passes cn_filter only for a listener of
    // every event (v6.6: the mask test of 0). pidfd: 10 us per fork + 15 us per exit.
    Scenario s = new ScenarioLoader().load(Path.of("load-tests/proc-filter.conf"),
        List.of("designs=[per-listener, pidfd]", "baseline=per-listener", "derived-ratios=[]", "machine.jitter=0"),
        0.01);
    ActorSystem<Void> sys = VirtualSystem.create(Behaviors.empty(), "virtual-proc", ConfigFactory.load());
    RunResult r;
    try {
      r = new ScenarioRunner(sys, SETTINGS, RunObserver.SILENT).run(s);
    } finally {
      VirtualSystem.terminate(sys, Duration.ofSeconds(5));
    }
    DesignResult listeners = r.designs().get(0);
    assertEquals((3 * 80 + 1) * 8333e-6, busyMs(listeners, "all"), 1e-9);
    assertEquals(2 * 80 * 8333e-6, busyMs(listeners, "fork-exit"), 1e-9);
    assertEquals(80 * 8333e-6, busyMs(listeners, "exit"), 1e-9);
    assertEquals(80 * 0.025, busyMs(r.designs().get(1), ProcEventsWorkload.PIDFD), 1e-9);
    // The run's simulated time is the monitors' work: the listeners' three streams share the simulated CPUs
    // (the all-events listener's 241 x 8333 ns is the longest), pidfd runs alone. It was 2 s more, now and
    // then, when a stream's completion reached the phase on a pool thread while the engine idled.
    assertEquals((3 * 80 + 1) * 8333e-9, listeners.wallSeconds(), 1e-4);
    assertEquals(80 * 25e-6, r.designs().get(1).wallSeconds(), 1e-4);
  }
}
