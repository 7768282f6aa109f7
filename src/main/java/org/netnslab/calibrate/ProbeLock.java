package org.netnslab.calibrate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One calibrate's probes at a time on this machine: two at once measure each other and both figures are wrong. A
 * lock on a file ({@link FileChannel#tryLock}, an fcntl lock): the kernel drops it when its process ends, however it
 * ends, so a killed calibrate leaves nothing held. The file holds the holder's pid, for the message of the one
 * refused.
 */
public final class ProbeLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private ProbeLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Another calibrate holds the lock: the message names the file and what to do. */
    public static final class Held extends Exception {
        private static final long serialVersionUID = 1L;

        Held(String message) {
            super(message);
        }
    }

    /**
     * @param home the netns-lab checkout (its target/ holds the lock where /run/lock cannot)
     * @return /run/lock/netns-lab-calibrate.lock, one for the whole machine, where /run/lock is a folder this user may
     *     write in; else {@code home/target/netns-lab-calibrate.lock}, one per checkout
     */
    public static Path defaultFile(Path home) {
        Path run = Path.of("/run/lock");
        Path machine = run.resolve("netns-lab-calibrate.lock");
        boolean usable =
                Files.exists(machine) ? Files.isWritable(machine) : Files.isDirectory(run) && Files.isWritable(run);
        return usable ? machine : home.resolve("target").resolve("netns-lab-calibrate.lock");
    }

    /**
     * @param file the lock file (created if missing)
     * @return the lock, held until {@link #close}
     * @throws Held another process holds it
     * @throws IOException the file cannot be created or opened
     */
    public static ProbeLock acquire(Path file) throws Held, IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        if (!Files.exists(file)) {
            try { // writable by every user: one lock for the machine, whoever calibrates first
                Files.createFile(file);
                Files.setPosixFilePermissions(
                        file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another calibrate made it a moment ago: the lock below decides which runs
            }
        }
        // no O_CREAT on a file that exists: fs.protected_regular refuses it in /run/lock for another user's file
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // this JVM holds it already: another calibrate in the same process (an embedding, a test)
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            String holder = holder(ch);
            ch.close();
            throw new Held("another calibrate is running on this machine" + holder + ": it holds " + file
                    + "; two at once measure each other, so wait until it ends (or re-fit saved measurements with"
                    + " --from, which runs no probe)");
        }
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        return new ProbeLock(ch, lock);
    }

    /** @return " (pid N)" from the file, or "" when it names none */
    private static String holder(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(32);
        ch.read(b, 0);
        String pid = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).trim();
        return pid.matches("\\d+") ? " (pid " + pid + ")" : "";
    }

    /** Releases the lock. */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
