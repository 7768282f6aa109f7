package org.netnslab.scenario;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * A --set that reads an environment variable is recorded with the value it read, against the environment it is given
 * (the process's own in a run, so each cluster node records, and fingerprints, its own); the scenario's keys come
 * first, as HOCON resolves.
 */
public class SetOverridesTest extends JUnitSuite {
    @Test
    public void aSetThatReadsTheEnvironmentIsRecordedWithItsValue() {
        Config keys = ConfigFactory.parseString("workload { injectors = 7 }, M = 3");
        List<String> sets = List.of("machine.cpus=2", "workload.injectors=${N}", "a=${b.c}", "c=${M}");
        assertEquals(
                List.of("machine.cpus=2", "workload.injectors=${N} (read as 100)", "a=${b.c}", "c=${M} (read as 3)"),
                SetOverrides.asRead(sets, keys, ConfigFactory.parseString("N = 100, M = 9")));
        assertEquals(
                "workload.injectors=${N} (read as 200)",
                SetOverrides.asRead(sets, keys, ConfigFactory.parseString("N = 200"))
                        .get(1));
    }
}
