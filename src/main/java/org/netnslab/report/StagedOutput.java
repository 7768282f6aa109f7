package org.netnslab.report;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.netnslab.settings.SavedFile;

/**
 * A run's output folder, written aside and put in place at the end: {@link #begin} checks the {@code --out} folder
 * against {@link OutputManifest}'s rule and creates a locked ({@link OutputLock}) temporary folder beside it, the
 * run {@link #write}s its results there, and {@link #commit} adds the manifest and swaps the folder into place. A run
 * that fails or is interrupted {@link #discard}s it, leaving the previous results as they were.
 *
 * <p>Thread-safe: a signal handler may {@link #abandon} it while the runner's thread writes or commits; whichever
 * comes first wins, and once abandoned a commit is refused.
 */
public final class StagedOutput {
    private final Path dir;
    private final Path temp;
    private final OutputManifest previous;
    private final String tool;
    private final String scenario;
    private final List<String> notes;
    private final OutputLock lock;
    private volatile boolean abandoned;
    private volatile boolean committed; // read without the lock by removeBeforeHalt
    private boolean discarded;

    /** The lock file in the temporary folder, held for the whole run; never part of the results. */
    public static final String LOCK_FILE = OutputLock.FILE_NAME;

    private StagedOutput(
            Path dir, Path temp, OutputManifest previous, String tool, String scenario, List<String> notes) {
        this.dir = dir;
        this.temp = temp;
        this.previous = previous;
        this.tool = tool;
        this.scenario = scenario;
        this.notes = List.copyOf(notes);
        this.lock = new OutputLock(temp);
    }

    /**
     * @return what {@link #begin} found or did that the user should hear of: a dead run's folder removed, or another
     *     scenario's results in the folder, which this run replaces
     */
    public List<String> notes() {
        return notes;
    }

    /** The manifest's scenario in calibrate's folders (CalibrateCommand stages them under it). */
    public static final String CALIBRATE = "calibrate";

    /**
     * Checks the folder and prepares the temporary one, before anything runs.
     *
     * @param dir the {@code --out} folder (missing, empty, or written by an earlier run)
     * @param tool the tool and version, for the manifest
     * @param scenario the scenario's name, for the manifest
     * @return the staged output
     * @throws OutputFolderException naming the folder, the reason and what to do: the folder breaks
     *     {@link OutputManifest#check}'s rule, it holds calibrate's results and this is not calibrate, or it or its
     *     parent cannot be created or written
     */
    public static StagedOutput begin(Path dir, String tool, String scenario) throws OutputFolderException {
        Path parent = dir.toAbsolutePath().normalize().getParent();
        if (parent == null || dir.getFileName() == null) {
            throw new OutputFolderException(dir + ": the root folder cannot be an output folder; choose another --out");
        }
        OutputManifest previous;
        try {
            previous = OutputManifest.check(dir);
        } catch (IOException e) {
            throw new OutputFolderException(dir + ": cannot list it (" + reason(e) + ")", e);
        }
        try {
            Files.createDirectories(parent);
        } catch (FileAlreadyExistsException e) {
            throw new OutputFolderException(
                    dir + ": cannot create its parent folder: " + e.getFile() + " is a file", e);
        } catch (IOException e) {
            throw new OutputFolderException(dir + ": cannot create its parent folder (" + reason(e) + ")", e);
        }
        if (previous != null && previous.scenario().equals(CALIBRATE) && !scenario.equals(CALIBRATE)) {
            // a run's results are made again in seconds; a calibration's host measurements need a quiet machine
            throw new OutputFolderException(dir + ": holds calibrate's results (written " + previous.written()
                    + "), host measurements a run's results would replace: choose another --out, or remove the"
                    + " folder first if you mean to");
        }
        List<String> notes = new ArrayList<>();
        if (previous != null && !previous.scenario().equals(scenario)) { // a re-run of the same is what --out is for
            notes.add(dir + " holds the results of " + previous.scenario() + " (written " + previous.written()
                    + "): this" + " run's results replace them when it ends (Ctrl-C before then keeps them)");
        }
        Path temp = parent.resolve(sibling(dir, "tmp"));
        try {
            OutputLock.clearDeadRuns(dir, parent, notes);
            Files.createDirectory(temp);
        } catch (FileAlreadyExistsException e) {
            throw new OutputFolderException(
                    dir + ": the temporary folder " + temp + " appeared while this run started:"
                            + " another run is starting into this folder; wait for it to end, or choose another --out",
                    e);
        } catch (IOException e) {
            throw new OutputFolderException(
                    dir + ": cannot create the temporary folder for the results beside it in " + parent + " ("
                            + reason(e) + ")",
                    e);
        }
        StagedOutput out = new StagedOutput(dir, temp, previous, tool, scenario, notes);
        try {
            out.lock.lock();
            writeCheck(temp);
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                writeCheck(dir); // its listed files are deleted at the end: found now, not after the run
            } else {
                Files.delete(
                        Files.createDirectory(dir)); // the name is renamed to at the end: a name too long is found now
            }
        } catch (IOException e) {
            out.discard();
            throw new OutputFolderException(dir + ": cannot write there (" + reason(e) + ")", e);
        }
        return out;
    }

    /** Creates and deletes a file in the folder: a read-only file system or folder is found now. */
    private static void writeCheck(Path folder) throws IOException {
        Files.delete(Files.createTempFile(folder, ".netns-lab-write-check", ""));
    }

    /** @return {@code .<name>.<kind>-<pid>} for a folder beside dir, the name cut so it fits NAME_MAX */
    static String sibling(Path dir, String kind) {
        String name = dir.getFileName().toString();
        return "." + (name.length() > 200 ? name.substring(0, 200) : name) + "." + kind + "-"
                + ProcessHandle.current().pid();
    }

    /** @return an exception's reason without the path the message names already */
    private static String reason(IOException e) {
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason() + (f.getFile() != null ? ": " + f.getFile() : "");
        }
        if (e instanceof java.nio.file.NoSuchFileException f) { // e.g. under /proc, which takes no new folder
            return "no such file or folder, and none can be made there: " + f.getFile();
        }
        if (e instanceof java.nio.file.AccessDeniedException f) {
            return "permission denied: " + f.getFile();
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** @return the output folder */
    public Path dir() {
        return dir;
    }

    /** @return the temporary folder the results are written to until the commit */
    public Path temp() {
        return temp;
    }

    /** Writes results into a folder. */
    @FunctionalInterface
    public interface Writer<T> {
        /**
         * @param folder where to write
         * @return what the writer returns to the caller
         * @throws IOException when a file cannot be written
         */
        T write(Path folder) throws IOException;
    }

    /**
     * Writes results into the temporary folder.
     *
     * @param writer writes the files
     * @param <T> what it returns
     * @return what it returned
     * @throws IOException when a file cannot be written, or (an {@link InterruptedIOException}) the
     *     output was abandoned
     */
    public synchronized <T> T write(Writer<T> writer) throws IOException {
        open();
        return writer.write(temp);
    }

    private void open() throws IOException {
        if (abandoned || discarded) {
            throw new InterruptedIOException("the run was interrupted: no results written to " + dir);
        }
        if (committed) {
            throw new IllegalStateException("already committed to " + dir);
        }
    }

    /**
     * Adds the manifest and puts the results in place of the folder's previous content: the old folder is renamed
     * aside and the temporary one (same parent, so same file system), given the old one's owner and mode, renamed to its
     * name, both {@code ATOMIC_MOVE},
     * so no result.json ever stands beside a partial set of {@code .hgrm} files; of the old folder only the files its
     * manifest lists are deleted. A folder that cannot be renamed (a mount point: EBUSY) has its listed files
     * replaced one by one instead, result.json and the manifest last.
     *
     * @return the old folder when it was left in place because it held files no run wrote (added
     *     during the run), else null
     * @throws IOException when the swap fails (the previous results are then back in place), or (an
     *     {@link InterruptedIOException}) the output was abandoned
     */
    public synchronized Path commit() throws IOException {
        open();
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(temp)) {
            ds.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.remove(LOCK_FILE);
        names.sort(null);
        OutputManifest.now(tool, scenario, names).write(temp);
        lock.unlock(); // the folder becomes the results: no lock file in it (the process's own pid still marks it
        // as live)
        Files.deleteIfExists(temp.resolve(LOCK_FILE));
        Path kept = null;
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            move(temp, dir);
        } else {
            FolderMode.keep(dir, temp);
            Path old = dir.toAbsolutePath().normalize().getParent().resolve(sibling(dir, "old"));
            boolean aside;
            try {
                move(dir, old);
                aside = true;
            } catch (IOException e) {
                aside = false; // a mount point cannot be renamed (EBUSY): replace its files instead
            }
            if (aside) {
                try {
                    move(temp, dir);
                } catch (IOException e) {
                    move(old, dir);
                    throw e;
                }
                kept = removeListed(old, true);
            } else {
                replaceInPlace(names);
            }
        }
        committed = true;
        lock.close();
        return kept;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    /**
     * Deletes from {@code folder} the regular files the previous manifest lists, and the manifest;
     * never follows a link, never deletes anything else.
     *
     * @param andFolder also delete the folder, when nothing else is left in it
     * @return the folder when it was kept because something else is in it, else null
     */
    private Path removeListed(Path folder, boolean andFolder) throws IOException {
        List<String> names = new ArrayList<>(previous == null ? List.of() : previous.files());
        names.add(OutputManifest.FILE_NAME);
        for (String n : names) {
            Path p = folder.resolve(n);
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(p);
            }
        }
        if (!andFolder) {
            return null;
        }
        try {
            Files.delete(folder);
            return null;
        } catch (DirectoryNotEmptyException e) {
            return folder;
        }
    }

    /** The fallback commit: the previous run's files out, the new ones in, result.json and the manifest last. */
    private void replaceInPlace(List<String> names) throws IOException {
        Files.deleteIfExists(dir.resolve(ResultsFolder.RESULT_JSON));
        removeListed(dir, false);
        List<String> order = new ArrayList<>(names);
        order.sort(Comparator.comparing((String n) -> n.equals(ResultsFolder.RESULT_JSON)));
        order.add(OutputManifest.FILE_NAME);
        for (String n : order) {
            Path to = dir.resolve(n);
            try {
                Files.move(temp.resolve(n), to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp.resolve(n), to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.delete(temp);
    }

    /**
     * Removes the temporary folder and what was written into it, unless the results were committed;
     * the previous results are untouched. Idempotent.
     *
     * @return true when nothing was committed (the run leaves no results), false when it had been
     */
    public synchronized boolean discard() {
        if (committed) {
            return false;
        }
        if (!discarded) {
            discarded = true;
            lock.unlock();
            deleteTree(temp);
            lock.close();
        }
        return true;
    }

    /**
     * Removes the temporary folder without waiting for a write or commit in progress, unless the results were
     * committed: for a process about to halt that cannot wait (a write may never end when the heap is exhausted). What
     * a writer in progress still adds is not removed.
     */
    public void removeBeforeHalt() {
        if (!committed) {
            deleteTree(temp);
        }
    }

    /**
     * From another thread (a signal handler): no commit after this; waits for a write or commit in
     * progress, then removes the temporary folder.
     *
     * @return true when no results were committed, false when the commit had already happened
     */
    public boolean abandon() {
        abandoned = true;
        return discard();
    }

    /** Deletes a folder this run created and everything in it, links as links (never followed). */
    static void deleteTree(Path folder) {
        try {
            Files.walkFileTree(folder, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone: nothing to remove
        } catch (IOException e) {
            System.err.println(
                    "netns-lab: could not remove the temporary folder " + folder + ": " + SavedFile.reason(e));
        }
    }
}
