package org.netnslab.cli;

import java.nio.file.Path;
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

    /** @return where the results are written, and committed */
    StagedOutput output() {
        return output;
    }

    /** Removes the temporary folder (a no-op once committed) and unregisters the command from {@link Stops}. */
    @Override
    public void close() {
        output.discard();
        Stops.running(null, null);
    }
}
