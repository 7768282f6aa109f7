package org.netnslab.cli;

import java.nio.file.Path;
import org.netnslab.calibrate.ProbeLock;

/**
 * Another calibrate, for {@link CalibrateFaultsTest}: a process that takes the calibrate lock of the file given,
 * prints {@code held}, and keeps it until its standard input closes or it is killed.
 */
public final class LockHolder {
    private LockHolder() {}

    /**
     * @param args the lock file
     * @throws Exception the lock cannot be taken
     */
    public static void main(String[] args) throws Exception {
        try (ProbeLock lock = ProbeLock.acquire(Path.of(args[0]))) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // holds the lock until stdin ends
            }
        }
    }
}
