package org.netnslab.machine;

import static org.junit.Assert.assertEquals;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class VirtualEngineScratchTest extends JUnitSuite {
  record Go(int n, ActorRef<Long> replyTo) {}

  static Behavior<Object> pinger() {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      Machine m = Machine.get(ctx.getSystem());
      final Go[] go = new Go[1];
      final int[] left = new int[1];
      return Behaviors.receiveMessage(msg -> {
        if (msg instanceof Go g) {
          go[0] = g;
          left[0] = g.n();
          timers.startSingleTimer("t", "tick", Duration.ofNanos(1500));
        } else if ("tick".equals(msg)) {
          if (--left[0] == 0) {
            go[0].replyTo().tell(m.nanoTime());
          } else {
            m.compute(700, () -> ctx.getSelf().tell("computed"));
          }
        } else if ("computed".equals(msg)) {
          timers.startSingleTimer("t", "tick", Duration.ofNanos(1500));
        }
        return Behaviors.same();
      });
    }));
  }

  @Test
  public void timersAndComputeRunInSimulatedNanoseconds() throws Exception {
    ActorSystem<Object> sys = VirtualSystem.create(pinger(), "v", ConfigFactory.load());
    try {
      Machine m = Machine.get(sys);
      m.configure(new MachineSettings(2, 0, 1), 0);
      long t0 = m.nanoTime();
      long w0 = System.nanoTime();
      int n = 200_000;
      CompletionStage<Long> r = AskPattern.ask(sys, rt -> new Go(n, rt), Duration.ofSeconds(10_000), sys.scheduler());
      CompletableFuture<Long> f = r.toCompletableFuture();
      m.engine().runUntil(f::isDone, t -> {}, 5_000_000_000L);
      long wall = System.nanoTime() - w0;
      System.out.println("wall ms " + wall / 1e6 + " events " + m.engine().eventsRun() + " runnables " + m.engine().runnablesRun());
      assertEquals((long) n * 1500 + (long) (n - 1) * 700, f.get() - t0);
    } finally {
      sys.terminate();
      Machine.get(sys).engine().runUntil(() -> sys.getWhenTerminated().toCompletableFuture().isDone(), t -> {}, 5_000_000_000L);
    }
  }
}
