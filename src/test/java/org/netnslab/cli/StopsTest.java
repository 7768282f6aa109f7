package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.report.OutputManifest;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code netns-lab run} as a child process, stopped by SIGHUP, SIGINT or SIGTERM in the middle of a phase: one
 * line on stderr naming the scenario, design, phase and progress, exit 129 / 130 / 143, the previous content
 * of {@code --out} byte for byte as it was, and no temporary folder left beside it.
 *
 * <p>Also: an OutOfMemoryError in a virtual run (the model runs on the runner's thread) ends it with
 * exit 1 and one line naming -Xmx and NETNS_LAB_JAVA_OPTS, the previous results untouched.
 *
 * <p>The run: unshare-loop live at --scale 0.05 with one design, whose loops phase (40 workers x 5
 * iterations = 200 netns) lasts a few seconds of wall time. The test waits until the child's progress
 * bar shows that phase (read from its stderr; the launcher's terminal switch is forced on), then
 * signals it.
 */
public class StopsTest extends JUnitSuite {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static final String DESIGN = "net-free-4.16";

    @Test
    public void sigintPrintsOneLineLeavesThePreviousResultsAndExits130() throws Exception {
        interrupt("INT", Stops.EXIT_SIGINT);
    }

    @Test
    public void sigtermPrintsOneLineLeavesThePreviousResultsAndExits143() throws Exception {
        interrupt("TERM", Stops.EXIT_SIGTERM);
    }

    /** The terminal closed (or the ssh session dropped): a stop like the others, not a fatal error. */
    @Test
    public void sighupPrintsOneLineLeavesThePreviousResultsAndExits129() throws Exception {
        interrupt("HUP", Stops.EXIT_SIGHUP);
    }

    /**
     * A soak's progress is the time passed: interrupted in its soak phase (15 s a design at --scale 0.1), the line
     * says how many of those seconds have passed, not "starting".
     */
    @Test
    public void anInterruptedSoakSaysItsPhaseAndTheSecondsPassed() throws Exception {
        Path root = tmp.getRoot().toPath();
        Process child = netnsLab(
                "-Xmx512m",
                "run",
                "load-tests/isolation-soak.conf",
                "--scale",
                "0.1",
                "--set",
                "designs=[kernel-4.18]",
                "--out",
                root.resolve("soak").toString());
        String text = ChildStderr.signalledAt(child, "[kernel-4.18] soak", "TERM");
        assertEquals(text, Stops.EXIT_SIGTERM, child.exitValue());
        List<String> lines = text.lines().filter(l -> l.contains("interrupted")).toList();
        assertEquals(text, 1, lines.size());
        Matcher m = Pattern.compile("netns-lab: interrupted \\(SIGTERM\\) in scenario isolation-soak, design"
                        + " kernel-4\\.18, phase soak, (\\d+)% \\((\\d+) of 15 s\\); no results written")
                .matcher(lines.get(0));
        assertTrue(lines.get(0), m.matches());
        assertEquals(lines.get(0), Long.parseLong(m.group(2)) * 100 / 15, Long.parseLong(m.group(1)));
    }

    @Test
    public void anOutOfMemoryErrorEndsAVirtualRunWithExit1AndOneLine() throws Exception {
        Path root = tmp.getRoot().toPath();
        Path out = previousResults(root, "uevent-tc1-userns"); // a re-run: no note that another's are replaced
        Path noHeapCheck = root.resolve("no-heap-check.conf"); // past the estimate, to reach a real OutOfMemoryError
        Files.writeString(noHeapCheck, "netns-lab.run.heap-check = false\n");
        Map<String, String> before = snapshot(root);
        // one lane (--jobs 1): with two, a 16 MiB heap may run out first in the second lane's actor system
        // starting, on one of Akka's threads, which Akka's jvm-exit-on-fatal-error ends with 255
        Process child = netnsLab(
                "-Xmx16m",
                "run",
                "load-tests/uevent-tc1-userns.conf",
                "--scale",
                "0.01",
                "--no-progress",
                "--jobs",
                "1",
                "--config",
                noHeapCheck.toString(),
                "--set",
                "workload.netns.userns-owned=20000",
                "--out",
                out.toString());
        String text = ChildStderr.ended(child, 120);
        assertEquals(text, Main.EXIT_FAILED, child.exitValue());
        // One line: Main's (the OutOfMemoryError reached the run's thread first), or the exit hook's (an actor's came
        // first and Akka exited the JVM; its own report and stack trace are filtered out), or, when the heap ran out
        // again while the hook built its line (the model's threads still allocate), its constant line; never two.
        assertTrue(
                text,
                Pattern.compile(
                                        "netns-lab: in scenario uevent-tc1-userns, design kernel-4\\.18, starting: out of"
                                                + " memory \\(Java heap space, max heap \\d+ MiB usable\\): give the JVM more heap, e.g. NETNS_LAB_JAVA_OPTS='-Xms1g -Xmx8g -XX:\\+UseParallelGC'"
                                                + " \\(these replace the launcher's -Xms1g -Xmx4g -XX:\\+UseParallelGC\\), or run a smaller population; no results written\\R?")
                                .matcher(text)
                                .matches()
                        || Pattern.compile("netns-lab: the JVM is exiting on a fatal error in an actor in"
                                        + " scenario uevent-tc1-userns, design kernel-4\\.18, starting; no results written; if it was an"
                                        + " OutOfMemoryError, give the JVM more heap, e.g. NETNS_LAB_JAVA_OPTS='-Xms1g -Xmx8g -XX:\\+UseParallelGC' \\(these replace the launcher's"
                                        + " -Xms1g -Xmx4g -XX:\\+UseParallelGC\\), or run a smaller population\\R?")
                                .matcher(text)
                                .matches()
                        || Pattern.compile(Pattern.quote(
                                                "netns-lab: the JVM is exiting on a fatal error in an actor; if it was an OutOfMemoryError, give the JVM more"
                                                        + " heap, e.g. NETNS_LAB_JAVA_OPTS='-Xms1g -Xmx8g -XX:+UseParallelGC' (these replace the launcher's -Xms1g -Xmx4g -XX:+UseParallelGC), or run a smaller population")
                                        + "\\R?")
                                .matcher(text)
                                .matches());
        assertEquals("--out as it was, no temporary folder beside it", before, snapshot(root));
    }

    /** @return {@code root/out} holding an earlier run's results (made up), listed in its manifest */
    private static Path previousResults(Path root, String scenario) throws IOException {
        Path out = root.resolve("out");
        Files.createDirectory(out);
        Files.writeString(out.resolve("result.json"), "{\"an earlier run's\": \"results\"}");
        Files.writeString(out.resolve(DESIGN + ".netns.create.hgrm"), "an earlier run's distribution");
        OutputManifest.now("netns-lab 0.1.0", scenario, List.of("result.json", DESIGN + ".netns.create.hgrm"))
                .write(out);
        return out;
    }

    /** Starts {@code netns-lab} as the launcher would, with this test's class path, SIGINT and SIGHUP at their default. */
    private static Process netnsLab(String heap, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (resetsSignals()) {
            cmd.addAll(List.of(
                    "env",
                    "--default-signal=INT,HUP")); // a JVM started with them ignored (nohup, &) keeps them ignored
        }
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                heap,
                "-Dconfig.file=conf/application.conf",
                "-Dlogback.configurationFile=conf/logback.xml",
                "-Dnetns-lab.stderr-tty=true",
                Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private void interrupt(String signal, int status) throws Exception {
        Path root = tmp.getRoot().toPath();
        Path out = previousResults(root, "unshare-loop");
        Map<String, String> before = snapshot(root);

        Process child = netnsLab(
                "-Xmx512m",
                "run",
                "load-tests/unshare-loop.conf",
                "--scale",
                "0.05",
                "--set",
                "execution=live",
                "--set",
                "designs=[" + DESIGN + "]",
                "--set",
                "baseline=" + DESIGN,
                "--out",
                out.toString());
        String text = ChildStderr.signalledAt(child, "[" + DESIGN + "] loops", signal);
        assertEquals(text, status, child.exitValue());
        Pattern line =
                Pattern.compile("netns-lab: interrupted \\(SIG" + signal + "\\) in scenario unshare-loop, design "
                        + Pattern.quote(DESIGN) + ", phase loops, (\\d+)% \\((\\d+) of 200\\); no results written");
        List<String> lines = text.lines().filter(l -> l.contains("interrupted")).toList();
        assertEquals(text, 1, lines.size());
        Matcher m = line.matcher(lines.get(0));
        assertTrue(lines.get(0), m.matches());
        long done = Long.parseLong(m.group(2));
        assertEquals(lines.get(0), done * 100 / 200, Long.parseLong(m.group(1)));
        assertTrue(lines.get(0), done <= 200);
        assertEquals("no stack trace: " + text, -1, text.indexOf("\tat "));
        assertEquals("--out byte for byte as it was, no temporary folder beside it", before, snapshot(root));
    }

    /** @return whether GNU env can reset a signal to its default for the child (coreutils 8.31 or later) */
    private static boolean resetsSignals() throws Exception {
        try {
            return new ProcessBuilder("env", "--default-signal=INT", "true")
                            .start()
                            .waitFor()
                    == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                all.put(
                        root.relativize(p).toString(),
                        Files.isDirectory(p)
                                ? "folder"
                                : new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return all;
    }
}
