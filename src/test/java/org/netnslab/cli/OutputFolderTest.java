package org.netnslab.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.netnslab.report.OutputManifest;
import org.scalatestplus.junit.JUnitSuite;

/**
 * An output folder the results cannot go to is refused before anything runs (exit 2), never after; a
 * run replaces only what an earlier run listed in the folder's manifest, and writes aside until the end.
 */
public class OutputFolderTest extends JUnitSuite {
    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private static int run(String out) {
        return Main.execute(
                "run", "load-tests/uevent-tc1-userns.conf", "--scale", "0.01", "--no-progress", "--out", out);
    }

    @Test
    public void anEmptyOutIsRefused() {
        assertEquals(Main.EXIT_CONFIG, run(""));
    }

    @Test
    public void aFolderThatCannotBeCreatedIsRefusedBeforeTheRun() throws Exception {
        Path file = tmp.newFile("plain-file").toPath();
        assertEquals(Main.EXIT_CONFIG, run(file.resolve("sub").toString()));
        Path tooLong = tmp.getRoot().toPath().resolve("x".repeat(300)); // NAME_MAX is 255 on Linux file systems
        assertEquals(Main.EXIT_CONFIG, run(tooLong.toString()));
        assertFalse(Files.exists(tooLong));
    }

    @Test
    public void theWriteCheckLeavesNothingBehind() throws Exception {
        Path dir = tmp.newFolder("out").toPath();
        assertEquals(
                0,
                Main.execute(
                        "run",
                        "load-tests/uevent-tc1-userns.conf",
                        "--scale",
                        "0.001",
                        "--no-progress",
                        "--out",
                        dir.toString(),
                        "--set",
                        "workload.netns.userns-owned=2",
                        "--set",
                        "workload.injectors=2",
                        "--set",
                        "designs=[kernel-6.9]",
                        "--set",
                        "baseline=kernel-6.9"));
        try (var files = Files.list(dir)) {
            assertEquals(
                    0,
                    files.filter(f -> f.getFileName().toString().startsWith(".netns-lab-write-check"))
                            .count());
        }
        assertTrue(Files.exists(dir.resolve("result.json")));
    }

    /** A tiny virtual run of one design (about a second): what the folder tests run. */
    private static String[] tiny(Path out, String design) {
        return new String[] {
            "run",
            "load-tests/uevent-tc1-userns.conf",
            "--scale",
            "0.001",
            "--no-progress",
            "--out",
            out.toString(),
            "--set",
            "workload.netns.userns-owned=2",
            "--set",
            "workload.injectors=2",
            "--set",
            "designs=[" + design + "]",
            "--set",
            "baseline=" + design
        };
    }

    private static void assertSucceeds(String[] args) {
        Output o = execute(args);
        assertEquals(o.err(), 0, o.status());
    }

    /** What a command printed on stderr and returned. */
    private record Output(int status, String err) {}

    private static synchronized Output execute(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            status = Main.execute(args);
        } finally {
            System.setErr(err);
        }
        return new Output(status, e.toString(StandardCharsets.UTF_8));
    }

    /** @return every entry under the folder (links not followed) with its bytes; a folder or link as its kind */
    private static Map<String, String> snapshot(Path root) throws Exception {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String kind = Files.isSymbolicLink(p)
                        ? "link to " + Files.readSymbolicLink(p)
                        : Files.isDirectory(p)
                                ? "folder"
                                : new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                all.put(root.relativize(p).toString(), kind);
            }
        }
        return all;
    }

    /** Asserts two snapshots equal, naming only the entries that differ. */
    private static void assertUnchanged(String what, Map<String, String> before, Map<String, String> after) {
        List<String> differ = new ArrayList<>();
        for (String k : new java.util.TreeSet<>(java.util.Set.copyOf(concat(before.keySet(), after.keySet())))) {
            if (!java.util.Objects.equals(before.get(k), after.get(k))) {
                differ.add(k + (before.containsKey(k) ? after.containsKey(k) ? " (changed)" : " (gone)" : " (new)"));
            }
        }
        assertEquals(what, List.of(), differ);
    }

    private static List<String> concat(java.util.Set<String> a, java.util.Set<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> names(Path dir) throws Exception {
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        return names;
    }

    @Test
    public void aRunLeavesAManifestOfExactlyTheFilesItWrote() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        Output run = execute(tiny(out, "kernel-6.9"));
        assertEquals(run.err(), 0, run.status());
        List<String> written = List.of(
                "kernel-6.9.uevent.delivery.hgrm",
                "kernel-6.9.uevent.transaction.hgrm",
                "report.html",
                "result-extra.json",
                "result.json",
                "summary.csv");
        List<String> all = new ArrayList<>(written);
        all.add(0, OutputManifest.FILE_NAME);
        assertEquals(all, names(out));
        JsonNode m = new ObjectMapper()
                .readTree(out.resolve(OutputManifest.FILE_NAME).toFile());
        assertEquals(Main.VERSION, m.get("tool").asText());
        assertEquals("uevent-tc1-userns", m.get("scenario").asText());
        List<String> listed = new ArrayList<>();
        m.get("files").forEach(f -> listed.add(f.asText()));
        assertEquals(written, listed);
        assertEquals(
                "nothing left beside the folder (no temporary or old folder)",
                List.of("out"),
                names(tmp.getRoot().toPath()));
    }

    /**
     * A run into a folder its user made private or shared leaves it so: the new folder takes the old one's mode, setgid
     * bit and owner.
     */
    @Test
    public void aSecondRunKeepsTheFoldersPermissions() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        assertSucceeds(tiny(out, "kernel-6.9"));
        Files.setPosixFilePermissions(out, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        assertSucceeds(tiny(out, "kernel-4.18"));
        assertEquals(
                "rwx------",
                java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                        out))); // the setgid bit of a shared folder, and (where this runs as root) its owner
        Files.setAttribute(out, "unix:mode", 02770);
        boolean root = ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        if (root) {
            Files.setAttribute(out, "unix:uid", 65534);
        }
        assertSucceeds(tiny(out, "kernel-6.9"));
        assertEquals(02770, ((Integer) Files.getAttribute(out, "unix:mode")) & 07777);
        if (root) {
            assertEquals(65534, Files.getAttribute(out, "unix:uid"));
        }
    }

    @Test
    public void aSecondRunReplacesTheFirstRunsFilesOnly() throws Exception {
        Path out = tmp.getRoot().toPath().resolve("out");
        assertSucceeds(tiny(out, "kernel-6.9"));
        assertSucceeds(tiny(out, "kernel-4.18"));
        assertEquals(
                List.of(
                        OutputManifest.FILE_NAME,
                        "kernel-4.18.uevent.delivery.hgrm",
                        "kernel-4.18.uevent.transaction.hgrm",
                        "report.html",
                        "result-extra.json",
                        "result.json",
                        "summary.csv"),
                names(out));
        assertEquals(List.of("out"), names(tmp.getRoot().toPath()));
    }

    @Test
    public void aFolderHoldingAnythingNoRunListedIsRefusedAndLeftAsItWas() throws Exception {
        Path root = tmp.getRoot().toPath();
        Path out = root.resolve("out");
        assertSucceeds(tiny(out, "kernel-6.9"));
        Path outside = tmp.newFile("precious.txt").toPath();
        Files.writeString(outside, "a user's own data");
        // a user's file, a folder and a link named like results, and a listed result replaced by a link
        Files.writeString(out.resolve("notes.txt"), "mine");
        Files.createDirectory(out.resolve("x.hgrm"));
        Files.createSymbolicLink(out.resolve("y.hgrm"), outside);
        Files.delete(out.resolve("kernel-6.9.uevent.delivery.hgrm"));
        Files.createSymbolicLink(out.resolve("kernel-6.9.uevent.delivery.hgrm"), outside);
        Map<String, String> before = snapshot(root);

        Output refused = execute(tiny(out, "kernel-6.9"));
        assertEquals(Main.EXIT_CONFIG, refused.status());
        assertEquals(
                "netns-lab: output folder " + out + ": holds 4 entries that its .netns-lab-manifest does not list:"
                        + " kernel-6.9.uevent.delivery.hgrm -> " + outside + ", notes.txt, x.hgrm/, y.hgrm -> "
                        + outside + "; a run"
                        + " replaces only the files an earlier run listed in its manifest: choose another --out, or empty the folder"
                        + System.lineSeparator(),
                refused.err());
        assertUnchanged("nothing deleted, nothing followed, no temporary folder", before, snapshot(root));
    }

    @Test
    public void aFolderWithNoManifestIsRefusedButReportStillReadsIt() throws Exception {
        Path root = tmp.getRoot().toPath();
        Path out = root.resolve("out");
        assertSucceeds(tiny(out, "kernel-6.9"));
        Files.delete(out.resolve(OutputManifest.FILE_NAME)); // as a version before manifests wrote it
        Map<String, String> before = snapshot(root);

        Output refused = execute(tiny(out, "kernel-6.9"));
        assertEquals(Main.EXIT_CONFIG, refused.status());
        assertTrue(
                refused.err(),
                refused.err()
                        .startsWith("netns-lab: output folder " + out + ": holds 6 entries and no"
                                + " .netns-lab-manifest (a netns-lab run writes one; an older version's output folder has none):"
                                + " kernel-6.9.uevent.delivery.hgrm, kernel-6.9.uevent.transaction.hgrm, report.html, result-extra.json,"
                                + " result.json and 1 more; "));
        assertUnchanged("refused, nothing changed", before, snapshot(root));
        assertEquals(0, execute("report", out.toString()).status()); // read-only use needs no manifest
    }

    @Test
    public void aRunThatFailsAfterTheCheckLeavesThePreviousResultsByteForByte() throws Exception {
        Path root = tmp.getRoot().toPath();
        Path out = root.resolve("out");
        assertSucceeds(tiny(out, "kernel-6.9"));
        // the actor system cannot start: the run fails after the output folder was checked and staged
        Path bad = tmp.newFile("bad-akka.conf").toPath();
        Files.writeString(bad, "akka.actor.provider = java.lang.String\n"); // a class, no provider: passes the checks
        Map<String, String> before = snapshot(root);
        Output failed = execute(append(tiny(out, "kernel-4.18"), "--config", bad.toString()));
        assertTrue(failed.err(), failed.status() != 0);
        assertUnchanged("previous results untouched, temporary folder removed", before, snapshot(root));
    }

    private static String[] append(String[] args, String... more) {
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    @Test
    public void aMissingOrEmptyFolderIsFine() throws Exception {
        Path empty = tmp.newFolder("empty").toPath();
        assertSucceeds(tiny(empty, "kernel-6.9"));
        assertTrue(Files.isRegularFile(empty.resolve("result.json")));
        Path deep = tmp.getRoot().toPath().resolve("a/b/out");
        assertSucceeds(tiny(deep, "kernel-6.9"));
        assertTrue(Files.isRegularFile(empty.resolve(OutputManifest.FILE_NAME)));
        assertEquals(List.of("out"), names(deep.getParent()));
    }
}
