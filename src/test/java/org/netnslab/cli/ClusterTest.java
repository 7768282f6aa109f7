package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.cluster.ClusterConfig;
import org.netnslab.cluster.WorkerNode;
import org.scalatestplus.junit.JUnitSuite;

/**
 * {@code run --cluster} with workers: a coordinator (this JVM, through Main) and two worker JVMs on free
 * loopback ports give the figures of a local run (result.json equal but for its wall-clock fields); a worker
 * killed while it runs a design run loses nothing (its run goes to the other worker); a worker of another
 * version is refused with a line, and the coordinator, left without workers, runs the design runs itself; a killed
 * worker is downed, so that the coordinator's leaving the cluster does not wait for it.
 */
public class ClusterTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private final List<Process> workers = new ArrayList<>();

    /** A small sweep: 2 designs x 3 CPU counts of the unshare-loop shape. */
    static final String[] SWEEP = {
        "run",
        "load-tests/unshare-loop.conf",
        "--scale",
        "0.03",
        "--no-progress",
        "--set",
        "execution=virtual",
        "--set",
        "workload.workers=4",
        "--set",
        "designs=[net-free-4.16, exit-barrier-4.16]",
        "--sweep",
        "machine.cpus=1,2,4"
    };

    @After
    public void stopWorkers() {
        workers.forEach(Process::destroyForcibly);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Path run(String name, String... extra) {
        Path out = tmp.getRoot().toPath().resolve(name);
        List<String> args = new ArrayList<>(List.of(SWEEP));
        args.addAll(List.of("--out", out.toString()));
        args.addAll(List.of(extra));
        assertEquals(0, Main.execute(args.toArray(String[]::new)));
        return out;
    }

    /** A worker JVM that joins the coordinator at {@code port} for one run; its stderr goes to {@code err}. */
    private Process worker(int port, StringBuilder err, String marker, CountDownLatch seen, String... extra)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--once"));
        args.addAll(List.of(extra));
        Process p = workerJvm(null, port, err, marker, seen, args);
        workers.add(p);
        return p;
    }

    /**
     * A worker JVM ({@code worker --join 127.0.0.1:PORT} and {@code args}) with conf/application.conf and
     * conf/logback.xml, as the launcher runs it.
     *
     * @param dir its working folder, or null for this one
     * @param port the coordinator's port
     * @param err gets its stderr
     * @param marker counts {@code seen} down when its stderr shows it
     * @param seen see {@code marker}
     * @param args more arguments
     * @return the process
     * @throws IOException when it cannot start
     */
    /**
     * @param args netns-lab's command line
     * @return the command of a netns-lab JVM of this test's classes, with the launcher's configuration and logging
     */
    static List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-Xmx512m",
                "-Dconfig.file=" + Path.of("conf/application.conf").toAbsolutePath(),
                "-Dlogback.configurationFile=" + Path.of("conf/logback.xml").toAbsolutePath(),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static Process workerJvm(
            Path dir, int port, StringBuilder err, String marker, CountDownLatch seen, List<String> args)
            throws IOException {
        List<String> cmd = command("worker", "--join", "127.0.0.1:" + port);
        cmd.addAll(args);
        ProcessBuilder b = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        if (dir != null) {
            b.directory(dir.toFile());
        }
        Process p = b.start();
        Thread t = new Thread(() -> ChildStderr.copy(p.getErrorStream(), err, marker, seen));
        t.setDaemon(true);
        t.start();
        return p;
    }

    @Test
    public void aCoordinatorAndTwoWorkerJvmsGiveTheFiguresOfALocalRunAndAKilledWorkerLosesNothing() throws Exception {
        JsonNode local = VirtualRunTest.withoutWallClock(run("local", "--jobs", "1"));

        int port = freePort();
        StringBuilder e1 = new StringBuilder();
        StringBuilder e2 = new StringBuilder();
        worker(port, e1, "\u0000", new CountDownLatch(1));
        worker(port, e2, "\u0000", new CountDownLatch(1));
        JsonNode cluster =
                VirtualRunTest.withoutWallClock(run("cluster", "--cluster", "127.0.0.1:" + port, "--jobs", "1"));
        VirtualRunTest.assertSame("", local, cluster);
        String both;
        synchronized (e1) {
            both = e1.toString();
        }
        synchronized (e2) {
            both += e2;
        }
        assertTrue("the workers ran the design runs: " + both, both.contains("running net-free-4.16@1cpu"));

        // two workers; whichever starts a design run first is killed during it: the run goes back to the queue's
        // front and the other worker does it
        // (every node with a shorter failure detection and downing than the 3 s + 5 s default, to keep the test short)
        int port2 = freePort();
        Path quick = tmp.getRoot().toPath().resolve("quick-downing.conf");
        Files.writeString(
                quick,
                "akka.cluster.failure-detector.acceptable-heartbeat-pause = 2s\n"
                        + "akka.cluster.split-brain-resolver.stable-after = 2s\n");
        StringBuilder k1 = new StringBuilder();
        StringBuilder k2 = new StringBuilder();
        CountDownLatch running = new CountDownLatch(1);
        Process w1 = worker(port2, k1, ": running ", running, "--config", quick.toString());
        Process w2 = worker(port2, k2, ": running ", running, "--config", quick.toString());
        Thread killer = new Thread(() -> {
            try {
                if (running.await(120, TimeUnit.SECONDS)) {
                    boolean first;
                    synchronized (k1) {
                        first = k1.indexOf(": running ") >= 0;
                    }
                    (first ? w1 : w2).destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        killer.start();
        Said run = runSaying("killed", "--cluster", "127.0.0.1:" + port2, "--jobs", "1", "--config", quick.toString());
        JsonNode survived = run.result();
        killer.join();
        String lines = run.stderr();
        assertTrue("the worker was killed mid-run: " + lines, lines.contains("left during"));
        assertTrue("the other worker did every run: " + lines, !lines.contains("left here"));
        VirtualRunTest.assertSame("", local, survived);
    }

    @Test
    public void whenTheLastWorkerIsGoneTheCoordinatorRunsWhatIsLeftItself() throws Exception {
        JsonNode local = VirtualRunTest.withoutWallClock(run("local", "--jobs", "1"));
        int port = freePort();
        Path quick = tmp.getRoot().toPath().resolve("quick-downing.conf");
        Files.writeString(
                quick,
                "akka.cluster.failure-detector.acceptable-heartbeat-pause = 2s\n"
                        + "akka.cluster.split-brain-resolver.stable-after = 2s\n");
        StringBuilder err = new StringBuilder();
        CountDownLatch running = new CountDownLatch(1);
        Process only = worker(port, err, ": running ", running, "--config", quick.toString());
        Thread killer = new Thread(() -> {
            try {
                if (running.await(120, TimeUnit.SECONDS)) {
                    only.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        killer.start();
        Said run;
        List<String> warned;
        try (AkkaWarnings w = new AkkaWarnings()) {
            run = runSaying("last", "--cluster", "127.0.0.1:" + port, "--jobs", "2", "--config", quick.toString());
            warned = w.lines();
        }
        JsonNode alone = run.result();
        killer.join();
        // the killed worker is downed: the coordinator's leaving does not wait out Akka's 10 s for it
        assertTrue(warned.toString(), warned.stream().noneMatch(l -> l.contains("timed out")));
        String lines = run.stderr();
        assertTrue(
                lines,
                java.util.regex.Pattern.compile("the last worker left: running the [1-6] design runs left here")
                        .matcher(lines)
                        .find());
        VirtualRunTest.assertSame("", local, alone);
    }

    @Test
    public void aWorkerOfAnotherVersionIsRefusedAndTheCoordinatorRunsTheRestItself() throws Exception {
        JsonNode local = VirtualRunTest.withoutWallClock(run("local", "--jobs", "1"));
        int port = freePort();
        Path conf = tmp.getRoot().toPath().resolve("wait.conf");
        Files.writeString(conf, "netns-lab.cluster.wait-for-workers = 8s\n");
        List<String> workerSaid = new ArrayList<>();
        WorkerNode other = WorkerNode.start(
                org.netnslab.scenario.SystemConfig.load(null),
                new ClusterConfig.HostPort("127.0.0.1", 0),
                new ClusterConfig.HostPort("127.0.0.1", port),
                ClusterCommands.loader(),
                "netns-lab 0.0.9",
                line -> {
                    synchronized (workerSaid) {
                        workerSaid.add(line);
                    }
                },
                true,
                org.netnslab.run.RunObserver.SILENT);
        PrintStream before = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        JsonNode alone;
        try {
            alone = VirtualRunTest.withoutWallClock(
                    run("refused", "--cluster", "127.0.0.1:" + port, "--jobs", "1", "--config", conf.toString()));
        } finally {
            System.setErr(before);
        }
        String lines = said.toString(StandardCharsets.UTF_8);
        assertTrue(
                lines,
                lines.contains("refused: it runs netns-lab 0.0.9, this coordinator " + ClusterCommands.nodeVersion()));
        assertTrue(
                lines,
                Pattern.compile("netns-lab: cluster: 1 worker joined and was refused \\(127\\.0\\.0\\.1:\\d+: it runs"
                                + " netns-lab 0\\.0\\.9, this coordinator "
                                + Pattern.quote(ClusterCommands.nodeVersion())
                                + "\\), and no"
                                + " other within the wait \\(netns-lab\\.cluster\\.wait-for-workers\\): running the 6"
                                + " design runs left here\\R")
                        .matcher(lines)
                        .find());
        VirtualRunTest.assertSame("", local, alone);
        other.system().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS); // the refused worker ends
        assertEquals(WorkerNode.Ending.REFUSED, other.ending());
        synchronized (workerSaid) {
            assertTrue(
                    workerSaid.toString(),
                    workerSaid.stream()
                            .anyMatch(l ->
                                    l.contains("the coordinator refused this worker:" + " it runs netns-lab 0.0.9")));
        }
    }

    /**
     * A worker's own {@code --config} configures its node, not the runs (those use the coordinator's configuration):
     * when it sets model keys, the worker says once that it does not use them.
     */
    @Test
    public void aWorkersConfigWithModelKeysIsSaidToBeUnused() throws Exception {
        Path conf = tmp.getRoot().toPath().resolve("model.conf");
        Files.writeString(conf, "netns-lab.model.costs.uevent.send-inside = 20us\n");
        CommandLineFaultsTest.Printed p = CommandLineFaultsTest.cli(
                "worker", "--join", "127.0.0.1:1", "--once", "--wait", "1s", "--config", conf.toString());
        assertEquals(p.err(), Main.EXIT_FAILED, p.status());
        assertEquals(
                p.err(),
                1,
                p.err()
                        .lines()
                        .filter(l -> l.equals("netns-lab: cluster: worker: --config " + conf + " sets netns-lab.model,"
                                + " which this worker does not use: each run uses the coordinator's configuration (its"
                                + " --config, read here at the same path, over this host's conf/application.conf)"))
                        .count());
        Path cluster = tmp.getRoot().toPath().resolve("cluster.conf");
        Files.writeString(cluster, "netns-lab.cluster.wait-for-workers = 8s\n");
        CommandLineFaultsTest.Printed quiet = CommandLineFaultsTest.cli(
                "worker", "--join", "127.0.0.1:1", "--once", "--wait", "1s", "--config", cluster.toString());
        assertTrue(quiet.err(), !quiet.err().contains("does not use"));
    }

    /**
     * {@code worker --once --wait D} gives up with exit 1 when no coordinator takes it within D (here none listens
     * at the address); {@code --wait} needs {@code --once} and a duration with its unit.
     */
    @Test
    public void aWorkerThatWaitsForNoCoordinatorGivesUp() {
        CommandLineFaultsTest.Printed p =
                CommandLineFaultsTest.cli("worker", "--join", "127.0.0.1:1", "--once", "--wait", "1s");
        assertEquals(p.err(), Main.EXIT_FAILED, p.status());
        assertTrue(
                p.err(),
                p.err()
                        .contains(": no coordinator at 127.0.0.1:1 took this worker within 1s; giving up (--wait: the"
                                + " coordinator was not there, or was too busy or done to take it; --join"
                                + " spells the address exactly as the coordinator's --cluster does: 127.0.0.1"
                                + " and localhost differ; and both or neither use TLS,"
                                + " akka.remote.artery.transport = tls-tcp)"));
        assertEquals(
                Main.EXIT_CONFIG,
                CommandLineFaultsTest.cli("worker", "--join", "127.0.0.1:1", "--wait", "1s")
                        .status());
        CommandLineFaultsTest.Printed bare =
                CommandLineFaultsTest.cli("worker", "--join", "127.0.0.1:1", "--once", "--wait", "5");
        assertEquals(Main.EXIT_CONFIG, bare.status());
        assertTrue(bare.err(), bare.err().contains("--wait 5: must be a duration with its unit, e.g. 60s"));
    }

    @Test
    public void anAddressBeyondLoopbackWithoutTlsIsRefused() {
        assertEquals(Main.EXIT_CONFIG, Main.execute("worker", "--join", "192.0.2.1:2552"));
        assertEquals(Main.EXIT_CONFIG, Main.execute("worker", "--join", "127.0.0.1:2552", "--bind", "0.0.0.0:2553"));
        assertEquals(Main.EXIT_CONFIG, Main.execute("worker", "--join", "127.0.0.1:x"));
        List<String> args = new ArrayList<>(List.of(SWEEP));
        args.addAll(List.of("--cluster", "192.0.2.1:2552"));
        assertEquals(Main.EXIT_CONFIG, Main.execute(args.toArray(String[]::new)));
    }

    /** A run's result.json without its wall-clock fields, and what it printed on stderr. */
    private record Said(JsonNode result, String stderr) {}

    private Said runSaying(String name, String... args) throws Exception {
        PrintStream before = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            return new Said(VirtualRunTest.withoutWallClock(run(name, args)), said.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(before);
        }
    }
}
