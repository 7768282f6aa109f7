package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import akka.Done;
import akka.actor.testkit.typed.javadsl.LogCapturing;
import akka.actor.testkit.typed.javadsl.TestKitJunitResource;
import akka.actor.typed.javadsl.AskPattern;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.netnslab.netns.NamespaceSupervisor;
import org.netnslab.userns.UserNamespace;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A createNetns whose caller has given up (its timeout passed before setup_net finished) leaves no netns held by no
 * one: the netns, made later, is released, and the supervisor reaches "all freed".
 */
public class EmbeddedCreateTimeoutTest extends JUnitSuite {
    @ClassRule
    public static final TestKitJunitResource testKit = new TestKitJunitResource();

    @Rule
    public final LogCapturing logCapturing = new LogCapturing();

    /** setup_net holds the lifecycle lock 300 ms of wall time, six times the caller's timeout. */
    private static Config slowSetup() {
        return ConfigFactory.parseString("netns-lab.model.netns.setup-cost = 300ms")
                .withFallback(testKit.system().settings().config());
    }

    @Test
    public void aNetnsMadeAfterItsCallerGaveUpIsReleased() throws Exception {
        NetnsLab.Instance lab = NetnsLab.start(testKit.system(), slowSetup(), Duration.ofMillis(50));
        try {
            Throwable e = NetnsLabStopTest.failure(lab.client().createNetns(UserNamespace.INIT));
            assertEquals(TimeoutException.class, e.getClass());
            assertTrue(e.getMessage(), e.getMessage().startsWith("createNetns: no answer in PT0.05S"));
            // AwaitAllFreed waits for the netns in setup_net, then for its net_free: without the release it never comes
            assertEquals(
                    Done.getInstance(),
                    AskPattern.<NamespaceSupervisor.Command, Done>ask(
                                    lab.supervisor(),
                                    NamespaceSupervisor.AwaitAllFreed::new,
                                    Duration.ofSeconds(10),
                                    testKit.system().scheduler())
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS));
            assertEquals(
                    Integer.valueOf(0),
                    AskPattern.<NamespaceSupervisor.Command, Integer>ask(
                                    lab.supervisor(),
                                    NamespaceSupervisor.CountLive::new,
                                    Duration.ofSeconds(10),
                                    testKit.system().scheduler())
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS));
        } finally {
            lab.stop().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
