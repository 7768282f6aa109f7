package org.netnslab.run;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/** A --config file's machine block: a value out of range is named with the file and line that set it. */
public class ExecutionDefaultsTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    /** Asserts that the machine block {@code key = value}, on a file's line 3, is refused with {@code message}. */
    private void refused(String key, String value, String message) throws Exception {
        Path f = tmp.newFile().toPath();
        Files.writeString(f, "netns-lab {\n  machine {\n    " + key + " = " + value + "\n  }\n}\n");
        Config c = ConfigFactory.parseFile(f.toFile())
                .withFallback(ConfigFactory.defaultReference())
                .resolve();
        assertEquals(
                f + ":3: " + message,
                org.junit.Assert.assertThrows(
                                IllegalArgumentException.class, () -> Execution.defaults(c.getConfig("netns-lab")))
                        .getMessage());
    }

    @Test
    public void aBadMachineValueNamesItsFileAndLine() throws Exception {
        refused("preempt", "sometimes", "machine.preempt must be none, voluntary or full, got 'sometimes'");
        refused("scheduler", "fiar", "machine.scheduler must be fair or fifo, got 'fiar'");
        refused("task-group", "galaxy", "machine.task-group must be root or session, got 'galaxy'");
        refused("jitter", "0.9", "machine.jitter must be in 0..0.5, got 0.9");
        refused("cpus", "0", "machine.cpus must be in 1..4096, got 0");
    }
}
