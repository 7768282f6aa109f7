package org.netnslab.workload.procevents;

import akka.Done;
import akka.stream.javadsl.Flow;
import akka.stream.javadsl.Keep;
import akka.stream.javadsl.Sink;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.netnslab.machine.CpuTask;
import org.netnslab.machine.Machine;
import org.netnslab.machine.Step;

/**
 * A process monitor's thread as a stream sink: what it is charged for each event it learns of runs on
 * the machine's CPUs (virtual execution) before it takes the next.
 */
final class MonitorSinks {
    private MonitorSinks() {}

    /**
     * A monitor's handling of each element. Live: as it comes. Virtual: what the monitor is charged for
     * an element runs on a simulated CPU before it takes the next (one monitor thread: a blocking
     * recvmsg / epoll_wait loop), so its events flow in simulated time and monitors compete for the CPUs.
     */
    static <T> Sink<T, CompletionStage<Done>> handled(Machine machine, Consumer<T> handle, LongSupplier busy) {
        return handled(machine, handle, busy, null, null, null, null);
    }

    /**
     * As {@link #handled(Machine, Consumer, LongSupplier)}, and: {@code onWake} runs before an element that
     * found the monitor asleep (its previous handling ended before the element came: a blocking recvmsg that
     * slept), not before one already queued when the previous ended; under the fair scheduler the handling
     * runs on the task of {@code owner} (named {@code name}); {@code received}, where given, is told the clock once an
     * element's charge has run (its receipt: the recvmsg that returns it has ended).
     */
    static <T> Sink<T, CompletionStage<Done>> handled(
            Machine machine,
            Consumer<T> handle,
            LongSupplier busy,
            Runnable onWake,
            Object owner,
            String name,
            java.util.function.LongConsumer received) {
        if (!machine.isVirtual()) {
            return Sink.foreach(handle::accept);
        }
        long[] lastDone = {Long.MIN_VALUE};
        return Flow.<T>create()
                .mapAsync(1, x -> {
                    long before = busy.getAsLong();
                    if (onWake != null && lastDone[0] < machine.nanoTime()) {
                        onWake.run();
                    }
                    handle.accept(x);
                    long charged = busy.getAsLong() - before;
                    CompletableFuture<Done> ran = new CompletableFuture<>();
                    Runnable end = () -> {
                        lastDone[0] = machine.nanoTime();
                        if (received != null) {
                            received.accept(machine.nanoTime());
                        }
                        ran.complete(Done.getInstance());
                    };
                    if (charged == 0) {
                        end.run();
                    } else { // unjittered: the CPU time spent is the busy time reported
                        if (owner != null && machine.fair()) {
                            machine.cpus()
                                    .run(
                                            machine.taskFor(owner, () -> name, CpuTask.Kind.LISTENER),
                                            Step.KERNEL,
                                            charged,
                                            end);
                        } else {
                            machine.cpus().run(charged, end);
                        }
                    }
                    return ran;
                })
                .toMat(Sink.ignore(), Keep.right());
    }

    /** @return {@code handle}, counting each element in {@code count} once handled */
    static <T> Consumer<T> counted(Consumer<T> handle, LongAdder count) {
        return x -> {
            handle.accept(x);
            count.increment();
        };
    }
}
