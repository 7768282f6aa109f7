package org.netnslab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.netnslab.calibrate.Repeatability;
import org.netnslab.calibrate.RepeatabilityTable;

/**
 * {@code calibrate --compare FILE... [--csv FILE]}: the table of {@link Repeatability} on the console, and its rows as
 * CSV ({@code --csv -}: the CSV alone on stdout, for a pipe). Exit 0 done, 2 a file or option at fault (one line naming it; nothing written), 1 the CSV could not be written.
 */
final class CalibrateCompare {
    private CalibrateCompare() {}

    /**
     * @param files the recordings, as given
     * @param csv where the rows go as CSV, or null
     * @return the exit status
     */
    static int run(List<Path> files, Path csv) {
        if (files.size() < 2) {
            Path only = files.get(0);
            boolean folder = Files.isDirectory(only) && !Files.exists(Repeatability.file(only));
            System.err.println("netns-lab: calibrate --compare: needs two or more calibration.json of one host, got "
                    + files.size() + " (" + only
                    + (folder ? ", a folder of no calibration.json: name its recordings, e.g. " + only + "/*.json" : "")
                    + ")");
            return Main.EXIT_CONFIG;
        }
        for (Path f : files) {
            if (f.toString().isBlank()) {
                System.err.println("netns-lab: calibrate --compare: an empty file name; name a calibration.json or the"
                        + " calibrate output folder holding one");
                return Main.EXIT_CONFIG;
            }
        }
        boolean toStdout = csv != null && csv.toString().equals("-");
        String wrong = csv == null || toStdout ? null : csvProblem(csv, files);
        if (wrong != null) {
            System.err.println("netns-lab: calibrate --csv " + csv + ": " + wrong + "; nothing written");
            return Main.EXIT_CONFIG;
        }
        Repeatability.Result r;
        try {
            r = Repeatability.of(files);
        } catch (IOException e) {
            System.err.println("netns-lab: calibrate --compare " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        if (toStdout) { // the rows alone, for a pipe
            System.out.print(RepeatabilityTable.csv(r));
            return 0;
        }
        if (csv != null) {
            Path abs = csv.toAbsolutePath().normalize();
            Path temp = null;
            try {
                temp = Files.createTempFile(
                        abs.getParent(),
                        ".netns-lab-",
                        ".csv",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
                Files.writeString(temp, RepeatabilityTable.csv(r));
                Files.move(temp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                System.err.println("netns-lab: calibrate --csv " + csv + ": cannot be written ("
                        + e.getClass().getSimpleName() + ")");
                deleteQuietly(temp);
                return Main.EXIT_FAILED;
            }
        }
        System.out.print(RepeatabilityTable.text(r));
        if (csv != null) {
            System.out.println("csv: " + csv);
        }
        return 0;
    }

    /** @return why the CSV cannot go to {@code csv}, or null */
    private static String csvProblem(Path csv, List<Path> files) {
        if (csv.toString().isBlank()) {
            return "an empty file name; name a file";
        }
        Path abs = csv.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) {
            return "is a folder; name a file";
        }
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS)) {
            return "is not an ordinary file (a link, device or pipe), which the CSV would replace; name another";
        }
        if (abs.getParent() == null || !Files.isDirectory(abs.getParent())) {
            return "its folder " + abs.getParent() + " does not exist or is not a folder";
        }
        if (!Files.isWritable(abs.getParent())) {
            return "its folder " + abs.getParent() + " is not writable";
        }
        for (Path f : files) {
            Path rec = Repeatability.file(f).toAbsolutePath().normalize();
            try {
                if (Files.exists(abs) && Files.exists(rec) && Files.isSameFile(abs, rec)) {
                    return "is " + f + ", one of the recordings compared";
                }
            } catch (IOException e) {
                return "cannot be told from " + f + " (" + e.getClass().getSimpleName() + ")";
            }
        }
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)
                && !abs.getFileName()
                        .toString()
                        .toLowerCase(java.util.Locale.ROOT)
                        .endsWith(".csv")) {
            return "exists and is not a .csv file, which the CSV would replace; name a .csv or a new file";
        }
        return null;
    }

    private static void deleteQuietly(Path temp) {
        if (temp == null) {
            return;
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) { // the write's failure is what the user is told; a leftover temp file is named
            System.err.println(
                    "netns-lab: calibrate --csv: the temporary file " + temp + " is left: " + e.getMessage());
        }
    }
}
