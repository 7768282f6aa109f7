package org.netnslab.settings;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * Numbers from environment variables: HOCON substitutes {@code ${N}} as a string, which a number's check takes when
 * it reads as one; a string written in a file stays a string.
 */
public class HoconCheckerEnvTest extends JUnitSuite {
    @Test
    public void aNumberFromAnEnvironmentVariableIsANumber() {
        Config env = ConfigFactory.parseMap(
                Map.of("N", "50", "F", "0.25", "W", "fifty", "X", "1e3x"), "env variables"); // Typesafe's origin
        Config conf = ConfigFactory.parseString("a = ${N}\nb = ${F}\nc = ${W}\nd = \"50\"\ne = ${F}\nf = ${X}\n")
                .resolveWith(env);
        List<ConfigProblem> problems = new ArrayList<>();
        HoconChecker c = new HoconChecker(conf, "t.conf", problems);
        assertEquals(50, c.integer("a", null, 1, 100));
        assertEquals(0.25, c.fraction("b", 0), 0);
        assertEquals(1, c.integer("c", null, 1, 100)); // "fifty": refused, the range's least returned
        assertEquals(1, c.integer("d", null, 1, 100)); // quoted in the file: a string
        assertEquals(1, c.integer("e", null, 1, 100)); // 0.25 is no integer
        assertEquals(0, c.fraction("f", 0), 0); // "1e3x"
        assertEquals(
                List.of(
                        "c: must be an integer in 1..100, got \"fifty\"",
                        "d: must be an integer in 1..100, got \"50\" (a number in quotes is text: write it without"
                                + " them)",
                        "e: must be an integer in 1..100, got \"0.25\"",
                        "f: must be a number in 0..1, got \"1e3x\""),
                problems.stream().map(p -> p.path() + ": " + p.message()).toList());
    }

    /** HOCON reads an integer beyond 64 bits as text, quoted or not: the message does not blame quotes. */
    @Test
    public void anIntegerBeyondALongIsNotBlamedOnQuotes() {
        Config conf = ConfigFactory.parseString("a = 99999999999999999999\nb = \"7\"\n");
        List<ConfigProblem> problems = new ArrayList<>();
        HoconChecker c = new HoconChecker(conf, "t.conf", problems);
        c.integer("a", null, 1, 100);
        c.integer("b", null, 10, 100);
        assertEquals(
                List.of(
                        "a: must be an integer in 1..100, got \"99999999999999999999\" (beyond a 64-bit integer)",
                        "b: must be an integer in 10..100, got \"7\" (a number in quotes is text: write it without"
                                + " them)"),
                problems.stream().map(p -> p.path() + ": " + p.message()).toList());
    }
}
