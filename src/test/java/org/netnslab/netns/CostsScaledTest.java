package org.netnslab.netns;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** {@link Costs#scaled}: every cost a model reads is scaled by its key's factor (a sensitivity sample). */
public class CostsScaledTest extends JUnitSuite {
    private static Costs withExitSwitch() {
        return Costs.fromConfig(ConfigFactory.parseString("costs.proc.exit-switch = 7us")
                .withFallback(ConfigFactory.load().getConfig("netns-lab.model")));
    }

    @Test
    public void aFactorOfOneLeavesEveryCostAsItIs() {
        Costs c = withExitSwitch();
        assertEquals(c, c.scaled(k -> 1.0));
    }

    @Test
    public void eachKeyIsScaledByItsOwnFactor() {
        Costs c = withExitSwitch();
        Costs s = c.scaled(k -> k.equals("proc.exit-switch") ? 3.0 : k.equals("proc.recvmsg") ? 0.5 : 1.0);
        assertEquals(Duration.ofNanos(21_000), s.proc().exitSwitch());
        assertEquals(Duration.ofNanos(3_750), s.proc().recvmsg());
        assertEquals(c.proc().wakeup(), s.proc().wakeup());
        assertEquals(7_000, c.nanos("proc.exit-switch"));
    }
}
