package org.netnslab.calibrate;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * tracefs for tests that look at netns_probe's instances: mounted, as the probe does where it is not, in a private
 * mount namespace of a shell's own ({@code unshare -m}), so nothing stays mounted. Root only.
 */
public final class Tracefs {
    /** Where the instances are, in that mount. */
    public static final String INSTANCES = "/sys/kernel/tracing/instances/";

    private Tracefs() {}

    /**
     * @param command a shell command run with tracefs mounted
     * @return what it printed
     * @throws AssertionError it failed (no unshare, no tracefs, not root)
     * @throws Exception it could not be run
     */
    public static String run(String command) throws Exception {
        Process p = new ProcessBuilder(
                        "unshare",
                        "-m",
                        "--propagation",
                        "private",
                        "sh",
                        "-c",
                        "mount -t tracefs nodev /sys/kernel/tracing && " + command)
                .redirectErrorStream(true)
                .start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new AssertionError(command + ": " + said);
        }
        return said.strip();
    }

    /** @return the instances there are now */
    public static List<String> instances() throws Exception {
        String ls = run("ls " + INSTANCES);
        return ls.isEmpty() ? List.of() : List.of(ls.split("\\s+"));
    }

    /** @return whether tracefs can be looked at here (root, unshare, tracefs) */
    public static boolean usable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        try {
            run("true");
            return true;
        } catch (Exception | AssertionError e) {
            return false; // no unshare or no tracefs here: the caller's test does not apply
        }
    }
}
