package org.netnslab.machine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.Rule;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A live actor system that does not terminate is awaited for a bounded time, not forever. */
public class LiveTerminateTest extends JUnitSuite {
    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    @Test
    public void aLiveSystemThatDoesNotTerminateIsGivenUpOnAfterItsBound() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopping = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // the guardian's PostStop holds its thread: the system cannot finish terminating until it is released
        ActorSystem<Void> system = ActorSystem.create(
                Behaviors.setup(ctx -> {
                    started.countDown();
                    return Behaviors.receive(Void.class)
                            .onSignal(PostStop.class, s -> {
                                stopping.countDown();
                                release.await(); // the point of the test: an actor that does not stop
                                return Behaviors.same();
                            })
                            .build();
                }),
                "stuck",
                ConfigFactory.load());
        // a guardian told to stop before it started gets no PostStop, and the system would terminate at once
        assertTrue("the guardian started", started.await(10, TimeUnit.SECONDS));
        try {
            TimeoutException e = org.junit.Assert.assertThrows(
                    TimeoutException.class, () -> VirtualSystem.terminate(system, Duration.ofMillis(300)));
            assertTrue(stopping.await(0, TimeUnit.SECONDS));
            assertEquals("actor system stuck has not terminated 300 ms after it was told to", e.getMessage());
        } finally {
            release.countDown();
        }
        system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
