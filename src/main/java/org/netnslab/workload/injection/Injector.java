package org.netnslab.workload.injection;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.userns.Credentials;
import org.netnslab.machine.Clock;

/**
 * A closed-loop uevent injector: a task looping on sendmsg into one or more netns, each injection
 * waiting for its acknowledgement before the next (the seed's injector processes). It times each
 * counted transaction, send to acknowledgement, in ns, into the run's striped recorder, and keeps its
 * own counts, handed over when its phase is done.
 */
public final class Injector extends AbstractBehavior<Injector.Command> {

  /** The injector's protocol. */
  public sealed interface Command permits Start, Acked, Stop {}

  /** Starts a phase: the warm-up or the counted injections. */
  public record Start(Phase phase) implements Command {}

  /** Stops the injector. */
  public enum Stop implements Command { INSTANCE }

  private record Acked(InjectResult result) implements Command {}

  /** Phases of an injection run. */
  public enum Phase { WARMUP, COUNTED }

  /**
   * One netns this injector sends into.
   *
   * @param netnsIndex index of the netns in the run (for the per-netns sent counts)
   * @param route the netns's injection route
   * @param credentials the task's credentials towards that netns
   * @param permitted whether the kernel lets these credentials send there: CAP_SYS_ADMIN over the
   *     netns's owning user namespace (uevent_net_rcv_skb), decided by the run's plan, not by the
   *     route, so a route that checks wrongly is caught; true for kernel-generated events
   * @param warmup warm-up injections
   * @param counted counted injections
   */
  public record Target(int netnsIndex, UeventRoute route, Credentials credentials, boolean permitted, long warmup,
      long counted) {}

  /** What the injector reports when a phase is done; called on the injector's thread. */
  public interface PhaseListener {
    /**
     * @param phase the phase done
     * @param sentPerNetns successful sends by netns index, for this phase
     * @param permissionViolations injections sent without the permission to, or refused with EPERM
     *     with it, in this phase (the {@code eperm} invariant: must be 0)
     * @param einval injections refused with EINVAL in this phase
     */
    void phaseDone(Phase phase, long[] sentPerNetns, long permissionViolations, long einval);
  }

  private final Target[] targets;
  private final long[] remaining;
  private final byte[] payload;
  private final PhaseListener listener;
  private final LongAdder progress;
  private final int netnsCount;
  private final ActorRef<InjectResult> ackTo;
  private Phase phase;
  private int cursor;
  private int current;
  private long sentNanos;
  private final StripedRecorder transactions;
  private long[] sent;
  private long permissionViolations;
  private long einval;

  /**
   * @param targets the netns it sends into, round-robin
   * @param payload the message it sends, without SEQNUM
   * @param netnsCount netns in the run (size of the per-netns counts)
   * @param listener told when a phase is done
   * @param progress incremented once per transaction, in both phases
   * @param transactions records each counted transaction's latency, ns
   * @return the injector's behaviour
   */
  public static Behavior<Command> create(List<Target> targets, byte[] payload, int netnsCount,
      PhaseListener listener, LongAdder progress, StripedRecorder transactions) {
    return Behaviors.setup(ctx -> new Injector(ctx, targets, payload, netnsCount, listener, progress, transactions));
  }

  private Injector(ActorContext<Command> ctx, List<Target> targets, byte[] payload, int netnsCount,
      PhaseListener listener, LongAdder progress, StripedRecorder transactions) {
    super(ctx);
    this.transactions = transactions;
    this.targets = targets.toArray(new Target[0]);
    this.remaining = new long[this.targets.length];
    this.payload = payload;
    this.netnsCount = netnsCount;
    this.listener = listener;
    this.progress = progress;
    this.ackTo = ctx.messageAdapter(InjectResult.class, Acked::new);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(Acked.class, this::onAcked)
        .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
        .build();
  }

  private Behavior<Command> onStart(Start m) {
    phase = m.phase();
    for (int i = 0; i < targets.length; i++) {
      remaining[i] = phase == Phase.WARMUP ? targets[i].warmup() : targets[i].counted();
    }
    sent = new long[netnsCount];
    permissionViolations = 0;
    einval = 0;
    sendNext();
    return this;
  }

  private void sendNext() {
    for (int i = 0; i < targets.length; i++) {
      int t = (cursor + i) % targets.length;
      if (remaining[t] > 0) {
        cursor = (t + 1) % targets.length;
        current = t;
        Target target = targets[t];
        sentNanos = Clock.nanoTime();
        target.route().inject(target.credentials(), payload, sentNanos, ackTo);
        return;
      }
    }
    listener.phaseDone(phase, sent, permissionViolations, einval);
  }

  private Behavior<Command> onAcked(Acked m) {
    long now = Clock.nanoTime();
    remaining[current]--;
    boolean permitted = targets[current].permitted();
    if (m.result() instanceof InjectResult.Sent) {
      sent[targets[current].netnsIndex()]++;
      if (!permitted) {
        permissionViolations++; // sent by a task the kernel refuses (EPERM, nothing delivered)
      }
      if (phase == Phase.COUNTED) {
        transactions.record(now - sentNanos);
      }
    } else if (((InjectResult.Failed) m.result()).errno() == Errno.EPERM) {
      if (permitted) {
        permissionViolations++; // refused although the task holds CAP_SYS_ADMIN over the owner
      }
    } else {
      einval++;
    }
    progress.increment();
    sendNext();
    return this;
  }
}
