package org.netnslab.workload.soak;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import java.util.concurrent.CompletableFuture;
import org.netnslab.machine.Clock;
import org.netnslab.metrics.StripedRecorder;
import org.netnslab.uevent.Errno;
import org.netnslab.uevent.InjectResult;
import org.netnslab.uevent.UeventRoute;
import org.netnslab.userns.Credentials;

/**
 * One sender task of a soak round: a closed loop of {@code count} sends on one route (an injection
 * with the task's credentials, or a kernel uevent), each waiting for its answer. An answer of EAGAIN
 * (a netns actor's fault switch fired before anything was sent) is sent again, as a process would
 * retry; every other answer is final. When done, {@code done} completes with its {@link Tally} and the
 * actor stops.
 */
final class SoakSender extends AbstractBehavior<SoakSender.Command> {

    /** The sender's protocol. */
    sealed interface Command permits Answer {}

    private record Answer(InjectResult result) implements Command {}

    /**
     * What one sender saw.
     *
     * @param netnsIndex the target netns's index in its round
     * @param permitted whether the kernel lets these credentials send there (decided from the credentials)
     * @param sent answers Sent
     * @param eperm answers EPERM
     * @param other answers with another errno (EINVAL for a vanished device)
     * @param retries EAGAIN answers, each sent again
     */
    record Tally(int netnsIndex, boolean permitted, long sent, long eperm, long other, long retries) {}

    /**
     * @param route where the sends go
     * @param credentials the task's credentials (ignored by a kernel uevent route)
     * @param payload each send's bytes
     * @param netnsIndex the target's index in the round, or -1 for an untagged kernel uevent
     * @param permitted whether the sends are allowed
     * @param count sends to make
     * @param transactions records each send's send-to-answer time, ns; null: not recorded
     * @param done completed with the tally at the end
     * @return the behaviour
     */
    static Behavior<Command> create(
            UeventRoute route,
            Credentials credentials,
            byte[] payload,
            int netnsIndex,
            boolean permitted,
            long count,
            StripedRecorder transactions,
            CompletableFuture<Tally> done) {
        return Behaviors.setup(ctx -> new SoakSender(
                        ctx, route, credentials, payload, netnsIndex, permitted, count, transactions, done)
                .start());
    }

    private final UeventRoute route;
    private final Credentials credentials;
    private final byte[] payload;
    private final int netnsIndex;
    private final boolean permitted;
    private final StripedRecorder transactions;
    private final CompletableFuture<Tally> done;
    private final ActorRef<InjectResult> answers;
    private long remaining;
    private long sent;
    private long eperm;
    private long other;
    private long retries;
    private long sentNanos;

    private SoakSender(
            ActorContext<Command> ctx,
            UeventRoute route,
            Credentials credentials,
            byte[] payload,
            int netnsIndex,
            boolean permitted,
            long count,
            StripedRecorder transactions,
            CompletableFuture<Tally> done) {
        super(ctx);
        this.route = route;
        this.credentials = credentials;
        this.payload = payload;
        this.netnsIndex = netnsIndex;
        this.permitted = permitted;
        this.remaining = count;
        this.transactions = transactions;
        this.done = done;
        this.answers = ctx.messageAdapter(InjectResult.class, Answer::new);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder().onMessage(Answer.class, this::onAnswer).build();
    }

    /** @return this sender after its first send, or stopped when it has none to make */
    Behavior<Command> start() {
        return next();
    }

    private Behavior<Command> next() {
        if (remaining == 0) {
            done.complete(new Tally(netnsIndex, permitted, sent, eperm, other, retries));
            return Behaviors.stopped();
        }
        sentNanos = Clock.nanoTime();
        route.inject(credentials, payload, sentNanos, answers);
        return this;
    }

    private Behavior<Command> onAnswer(Answer m) {
        if (m.result() instanceof InjectResult.Failed f && f.errno() == Errno.EAGAIN) {
            retries++; // the netns actor failed before sending anything: the task tries again
            return next();
        }
        if (transactions != null) {
            transactions.record(Clock.nanoTime() - sentNanos);
        }
        remaining--;
        if (m.result() instanceof InjectResult.Sent) {
            sent++;
        } else if (((InjectResult.Failed) m.result()).errno() == Errno.EPERM) {
            eperm++;
        } else {
            other++;
        }
        return next();
    }
}
