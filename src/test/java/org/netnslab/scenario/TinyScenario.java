package org.netnslab.scenario;

/** The seed's TC2 in miniature (5 netns, 400 counted injections each): a scenario file's text for tests. */
public final class TinyScenario {
    private TinyScenario() {}

    /**
     * @param designs the {@code designs} list, e.g. {@code kernel-4.18, per-netns-2018}
     * @return the scenario file's text
     */
    public static String tc2(String designs) {
        return String.join(
                "\n",
                "name = tiny-tc2",
                "description = \"TC2 in miniature\"",
                "seed = \"netns: isolate seqnums to use per-netns locks (2018), TC2\"",
                "workload {",
                "  type = uevent-injection",
                "  netns { userns-owned = 3, init-owned = 2 }",
                "  listeners-per-netns = 2",
                "  injections-per-netns = 400",
                "  warmup-per-netns = 7",
                "  injectors = 4",
                "}",
                "designs = [" + designs + "]",
                "seed-ratios { \"per-netns-2018\" = 0.90 }",
                "");
    }
}
