package org.netnslab.report;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netnslab.settings.SavedFile;

/**
 * One run at a time per output folder: a run's temporary folder holds a lock file the run keeps locked ({@link
 * FileChannel#tryLock}, released by the kernel when the process dies). A temporary folder whose lock is held (or
 * whose Java process is alive and has not locked it yet) refuses another run; one whose lock is free was left by a
 * run killed with SIGKILL and is removed.
 */
final class OutputLock {
    /** The lock file in the temporary folder, held for the whole run; never part of the results. */
    static final String FILE_NAME = ".netns-lab-lock";
    /** The temporary folders this JVM is writing now (a test may stage twice; the CLI stages once). */
    private static final Set<Path> ACTIVE = ConcurrentHashMap.newKeySet();

    private final Path temp;
    private FileChannel channel;

    /** Marks {@code temp} as this JVM's, before it is locked. */
    OutputLock(Path temp) {
        this.temp = temp;
        ACTIVE.add(temp);
    }

    /**
     * Creates the lock file and locks it.
     *
     * @throws IOException when it cannot be created or locked
     */
    void lock() throws IOException {
        channel = FileChannel.open(temp.resolve(FILE_NAME), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        if (channel.tryLock() == null) {
            throw new IOException("cannot lock " + temp.resolve(FILE_NAME));
        }
    }

    /** Releases the lock, keeping the file. */
    void unlock() {
        if (channel != null) {
            try {
                channel.close(); // releases the lock
            } catch (IOException e) {
                System.err.println("netns-lab: could not release the lock " + temp.resolve(FILE_NAME) + ": "
                        + SavedFile.reason(e));
            }
            channel = null;
        }
    }

    /** Unlocks and forgets the folder: it is committed or removed. */
    void close() {
        unlock();
        ACTIVE.remove(temp);
    }

    /** {@code .<name>.tmp-<pid>}: a run's temporary folder for {@code dir}, the pid in group 1. */
    private static Pattern tempFolders(Path dir) {
        return Pattern.compile(Pattern.quote(StagedOutput.sibling(dir, "tmp").replaceFirst("-\\d+$", "-")) + "(\\d+)");
    }

    /**
     * Refuses a run while another writes for the same folder; removes the temporary folders of runs that no
     * longer exist (killed with SIGKILL: they could not remove their own).
     *
     * @throws OutputFolderException naming the run (pid) that holds the folder
     */
    static void clearDeadRuns(Path dir, Path parent, List<String> notes) throws IOException, OutputFolderException {
        Pattern mine = tempFolders(dir);
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent)) {
            for (Path p : ds) {
                if (mine.matcher(p.getFileName().toString()).matches()
                        && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    found.add(p);
                }
            }
        }
        found.sort(null);
        for (Path p : found) {
            Matcher m = mine.matcher(p.getFileName().toString());
            m.matches();
            long pid = Long.parseLong(m.group(1));
            if (held(p, pid)) {
                throw new OutputFolderException(
                        dir + ": another run (pid " + pid + ") is writing its results for this folder"
                                + " now (its temporary folder " + p + "); wait for it to end, or choose another --out");
            }
            StagedOutput.deleteTree(p);
            notes.add("removed " + p + ", the temporary folder of a run (pid " + pid
                    + ") that no longer exists (killed?)");
        }
    }

    /** @return whether a live run holds the temporary folder */
    private static boolean held(Path folder, long pid) {
        if (ACTIVE.contains(folder)) {
            return true; // this JVM's own (locks are per process: never probe them from the holder)
        }
        if (pid == ProcessHandle.current().pid()) {
            return false; // this process stages nothing else: left by an earlier process of the same pid
        }
        Path lock = folder.resolve(FILE_NAME);
        if (Files.isRegularFile(lock, LinkOption.NOFOLLOW_LINKS)) {
            try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE)) {
                FileLock l = ch.tryLock();
                if (l == null) {
                    return true;
                }
                l.release();
                return false;
            } catch (OverlappingFileLockException e) {
                return true;
            } catch (IOException e) {
                return true; // cannot tell: never remove what may be another run's
            }
        }
        // no lock file: a run between creating its folder and locking it, or a version that locks none; its process
        // decides
        return ProcessHandle.of(pid)
                .map(h -> h.isAlive()
                        && h.info().command().map(c -> c.endsWith("java")).orElse(true))
                .orElse(false);
    }
}
