package org.netnslab.report;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/** A sweep's identical pairs are said once, with every count, "CPU" after the count 1 alone. */
public class SweepIdenticalTest extends JUnitSuite {
    private static Verdict.Line pair(int cpus) {
        return new Verdict.Line(
                "per-netns-2018@" + cpus + "cpu and kernel-6.9@" + cpus + "cpu gave identical figures: at this load no"
                        + " path where they differ is contended.",
                null,
                Double.NaN);
    }

    @Test
    public void everyCountIsNamedAndOneCpuIsSingular() {
        assertEquals(
                "per-netns-2018 and kernel-6.9 gave identical figures at 1 CPU: no path where they differ is contended"
                        + " there.",
                SweepVerdict.identical(List.of(pair(1))).get(0).text());
        assertEquals(
                "per-netns-2018 and kernel-6.9 gave identical figures at 1, 2, 64 CPUs: no path where they differ is"
                        + " contended there.",
                SweepVerdict.identical(List.of(pair(1), pair(2), pair(64)))
                        .get(0)
                        .text());
    }
}
