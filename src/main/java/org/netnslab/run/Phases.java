package org.netnslab.run;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Starting and awaiting the phases of a workload, shared by the workload runners.
 */
public final class Phases {
  private static final AtomicInteger STARTERS = new AtomicInteger();

  private final ActorRef<Runnable> starter;
  private final RunSettings settings;
  private final RunObserver observer;

  /**
   * The starter runs a phase's kick-off inside the actor system. Told from the runner's thread, Start
   * messages would sit in the dispatcher's external queue, which workers poll only when their own
   * queues are empty: each workload actor would then run its whole loop alone and the "parallel"
   * ones would run one after the other. Told from an actor, all of them are runnable at once and
   * time-share the cores, as the seeds' parallel processes did.
   */
  public Phases(ActorSystem<?> system, RunSettings settings, RunObserver observer) {
    this.settings = settings;
    this.observer = observer;
    this.starter = system.systemActorOf(Behaviors.<Runnable>receiveMessage(r -> {
      r.run();
      return Behaviors.same();
    }), "phase-starter-" + STARTERS.incrementAndGet(), Props.empty());
  }

  /**
   * Waits for one model request, a little longer than its own ask timeout.
   *
   * @param stage the request's answer
   * @param design the design's name, for messages
   * @param what what is awaited, for messages
   * @param <T> the answer's type
   * @return the answer
   * @throws RunFailure when it fails, times out or the thread is interrupted
   */
  public <T> T await(CompletionStage<T> stage, String design, String what) throws RunFailure {
    try {
      return stage.toCompletableFuture().get(settings.askTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      throw new RunFailure(design + ": " + what + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailure(design + ": interrupted while " + what, e);
    }
  }

  /**
   * Runs {@code kickOff} in the actor system, then waits for {@code done}, reporting progress and
   * failing when nothing progresses for the stall timeout.
   *
   * @param design the design's name, for messages
   * @param label the phase's name
   * @param kickOff tells the workload actors to start
   * @param done opened when every workload actor has finished the phase
   * @param progress counts completed operations (of this and earlier phases)
   * @param total operations the phase will complete
   * @return the phase's wall time, ns
   * @throws RunFailure when the phase stalls or the thread is interrupted
   */
  public long run(String design, String label, Runnable kickOff, CountDownLatch done, LongAdder progress, long total)
      throws RunFailure {
    return run(design, label, kickOff, done, progress, total, null);
  }

  /**
   * As {@link #run(String, String, Runnable, CountDownLatch, LongAdder, long)}, and appends one sample
   * per progress interval to {@code samples}: {seconds since the phase started, operations per second
   * over the interval}.
   */
  public long run(String design, String label, Runnable kickOff, CountDownLatch done, LongAdder progress, long total,
      java.util.List<double[]> samples) throws RunFailure {
    long base = progress.sum();
    long start = System.nanoTime();
    starter.tell(kickOff);
    long lastDone = -1;
    long lastChange = start;
    long lastSampleNanos = start;
    long lastSampleDone = 0;
    try {
      while (!done.await(settings.progressInterval().toMillis(), TimeUnit.MILLISECONDS)) {
        long now = System.nanoTime();
        long d = progress.sum() - base;
        observer.progress(design, label, d, total, now - start);
        if (samples != null) {
          samples.add(new double[] {(now - start) / 1e9, (d - lastSampleDone) / ((now - lastSampleNanos) / 1e9)});
          lastSampleNanos = now;
          lastSampleDone = d;
        }
        if (d != lastDone) {
          lastDone = d;
          lastChange = now;
        } else if (now - lastChange > settings.stallTimeout().toNanos()) {
          throw new RunFailure(design + ": " + label + " phase stalled at " + d + " of " + total + " for "
              + settings.stallTimeout().toMillis() + " ms (netns-lab.run.stall-timeout); an actor may have failed:"
              + " see the log lines on stderr");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailure(design + ": interrupted in the " + label + " phase", e);
    }
    long wall = System.nanoTime() - start;
    if (samples != null && wall > lastSampleNanos - start) {
      long d = progress.sum() - base;
      samples.add(new double[] {wall / 1e9, (d - lastSampleDone) / ((start + wall - lastSampleNanos) / 1e9)});
    }
    observer.phaseDone(design, label, total, wall);
    return wall;
  }
}
