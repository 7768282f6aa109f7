package org.netnslab.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.netnslab.report.OutputFolderException;
import org.netnslab.report.StagedOutput;

/**
 * A command's output folder written aside and put in place at the end ({@link StagedOutput}), with the command
 * registered as running ({@link Stops}: a signal then names what it was doing and removes the temporary folder).
 * Closing it removes the temporary folder unless committed, and ends the registration.
 */
final class StagedRun implements AutoCloseable {
    private final StagedOutput output;

    private StagedRun(StagedOutput output) {
        this.output = output;
    }

    /**
     * Checks the folder and prepares the temporary one, before anything runs; prints on stderr what the check found
     * that the user should hear of ({@link StagedOutput#notes}).
     *
     * @param dir the output folder
     * @param scenario the scenario's name, for the folder's manifest
     * @param now what the command is doing, for the line a signal prints
     * @return the staged output, registered with {@link Stops}
     * @throws OutputFolderException naming the folder and why it may not be written
     */
    static StagedRun begin(Path dir, String scenario, NowRunning now) throws OutputFolderException {
        StagedOutput output = StagedOutput.begin(dir, Main.VERSION, scenario);
        output.notes().forEach(n -> System.err.println("netns-lab: " + n));
        Stops.running(now, output);
        return new StagedRun(output);
    }

    /**
     * {@link #begin} on the given folder, or, with none given, on a {@link #defaultFolder} of its own: when another
     * run took the same default name between the choice and the staging, the next name is tried.
     *
     * @param out the {@code --out} folder, or null
     * @param parent where a default folder goes
     * @param name a default folder's first part
     * @param scenario the scenario's name, for the folder's manifest
     * @param now what the command is doing, for the line a signal prints
     * @return the staged output; its {@link StagedOutput#dir} is the folder chosen
     * @throws OutputFolderException naming the folder and why it may not be written
     */
    static StagedRun begin(Path out, Path parent, String name, String scenario, NowRunning now)
            throws OutputFolderException {
        if (out != null) {
            return begin(out, scenario, now);
        }
        for (int tries = 1; ; tries++) {
            Path dir = defaultFolder(parent, name);
            try {
                return begin(dir, scenario, now);
            } catch (OutputFolderException e) {
                if (!taken(dir) || tries == 10) {
                    throw e;
                }
            }
        }
    }

    /**
     * The folder a command writes to when no {@code --out} names one: {@code <parent>/<name>-<yyyyMMdd-HHmmss>}, or
     * that with {@code -2}, {@code -3}, ... when a run begun in the same second has the name already (its folder, or
     * the temporary one it writes aside), so that two runs started at once each get a folder of their own.
     *
     * @param parent the folder the results go under (e.g. {@code target/netns-lab})
     * @param name the scenario's or command's name
     * @return the folder, not yet created
     */
    static Path defaultFolder(Path parent, String name) {
        return defaultFolder(parent, name, LocalDateTime.now());
    }

    /** {@link #defaultFolder(Path, String)} at {@code now}. */
    static Path defaultFolder(Path parent, String name, LocalDateTime now) {
        String base = name + "-" + now.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        for (int i = 1; ; i++) {
            Path dir = parent.resolve(i == 1 ? base : base + "-" + i);
            if (!taken(dir)) {
                return dir;
            }
        }
    }

    /**
     * @return whether another run has {@code dir}: its folder exists, or a run writes aside for it now (a
     *     {@code .<name>.tmp-<pid>} beside it)
     */
    private static boolean taken(Path dir) {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (!Files.isDirectory(parent)) {
            return false;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, "." + dir.getFileName() + ".tmp-*")) {
            return ds.iterator().hasNext();
        } catch (IOException e) { // cannot list: StagedOutput.begin says why when it tries the folder
            return false;
        }
    }

    /** @return where the results are written, and committed */
    StagedOutput output() {
        return output;
    }

    /** Removes the temporary folder (a no-op once committed) and unregisters the command from {@link Stops}. */
    @Override
    public void close() {
        if (!output.discard()) { // committed: a signal from here on is after the run, not before it
            Stops.written(output.dir());
        }
        Stops.running(null, null);
    }
}
