package org.netnslab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.netnslab.report.ConsoleReport;
import org.netnslab.report.HtmlReport;
import org.netnslab.report.ReportInputException;
import org.netnslab.report.ResultsFolder;
import org.netnslab.report.RunRecord;
import org.netnslab.report.SummaryCsv;
import org.netnslab.settings.SavedFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code report DIR}: an earlier run's report, rebuilt from the results it saved in DIR without
 * running anything (see {@link ResultsFolder}): writes {@code DIR/report.html} and prints the summary
 * the run printed. Exit status 2, with the file and the problem on stderr, when DIR or its
 * result.json is missing or does not parse; also 2 when result-extra.json or a {@code .hgrm} is, after
 * writing the report without that part and with a note naming the file, and when a folder is in the way of
 * report.html or DIR may not be written to; 1 when report.html cannot be written otherwise. report.html is written
 * beside and renamed to its name, so a link of that name is replaced, never followed.
 */
@Command(
        name = "report",
        description = "Rebuild DIR/report.html and print the summary from the results an earlier run saved in DIR,"
                + " without running anything; exit 2 when a saved file is missing or does not parse (the report is"
                + " still written when only result-extra.json or a .hgrm file is at fault, with a note).")
final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "output folder of an earlier run")
    Path dir;

    @picocli.CommandLine.Option(names = "--check", description = "exit 3 when the run's verdict fails, as run --check")
    boolean check;

    /**
     * @param record a run
     * @return 0 when its verdict passes; else {@link Main#EXIT_CHECK}, after saying why on stderr
     */
    static int checked(RunRecord record) {
        org.netnslab.report.Verdict v = org.netnslab.report.Verdict.of(record);
        if (v.passes()) {
            return 0;
        }
        v.checked().stream()
                .filter(l -> Boolean.FALSE.equals(l.agrees()))
                .forEach(l -> System.err.println("netns-lab: --check: " + l.text()));
        if (v.invariants().contains("NOT expected")) {
            System.err.println("netns-lab: --check: " + v.invariants());
        }
        return Main.EXIT_CHECK;
    }

    @Override
    public Integer call() {
        if (dir.toString().isBlank()) { // an empty path names the current folder, which the user did not mean
            System.err.println("netns-lab: report: empty folder name; name the output folder of a run");
            return Main.EXIT_CONFIG;
        }
        RunRecord record;
        try {
            record = ResultsFolder.read(dir);
        } catch (ReportInputException e) {
            boolean calibration =
                    !Files.exists(dir.resolve("result.json")) && Files.isRegularFile(dir.resolve("calibration.json"));
            System.err.println("netns-lab: " + e.getMessage()
                    + (calibration
                            ? " (" + dir + " holds a calibrate run: its report.html is written by calibrate; calibrate"
                                    + " --from " + dir.resolve("calibration.json") + " writes it again)"
                            : ""));
            return Main.EXIT_CONFIG;
        }
        Path html = dir.resolve(ResultsFolder.REPORT_HTML);
        for (Path p : List.of(html, dir.resolve(SummaryCsv.FILE))) { // a file put in its place would take the folder
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                System.err.println("netns-lab: " + p + ": a folder is in the way of the "
                        + (p.equals(html) ? "report" : "summary") + " this writes there; move it away");
                return Main.EXIT_CONFIG;
            }
        }
        printSummary(record); // read from result.json: said even where report.html cannot be written
        try {
            HtmlReport.write(record, html);
        } catch (IOException e) { // a read-only copy or a folder of another user's: the summary above stands
            System.err.println("netns-lab: cannot write " + html + " (" + SavedFile.reason(e) + "); the summary"
                    + " above is read from " + dir.resolve("result.json") + ": copy the folder somewhere writable for"
                    + " the page");
            return Main.EXIT_CONFIG;
        }
        System.out.println("report:  " + html);
        record.notes().forEach(n -> System.err.println("netns-lab: " + n));
        // checked and written beside the notes (a missing .hgrm), but not without result-extra.json's throughput
        // units, which summary.csv holds and a rewrite would lose
        boolean summaryHolds =
                record.designs().stream().anyMatch(d -> d.throughputUnit() == null) || summary(dir, record);
        if (!record.notes().isEmpty() || !summaryHolds) {
            return Main.EXIT_CONFIG;
        }
        return check ? checked(record) : 0;
    }

    /**
     * summary.csv against result.json: {@code --check} refuses one that differs (an older folder's missing one
     * passes); without it the file is written again from result.json, as report.html is, saying what it replaced.
     *
     * @return false when the check refuses it or it cannot be read or written (said on stderr)
     */
    private boolean summary(Path dir, RunRecord record) {
        Path csv = dir.resolve(SummaryCsv.FILE);
        try {
            String differs = ResultsFolder.summaryDiffers(dir, record);
            boolean missing = ResultsFolder.SUMMARY_MISSING.equals(differs);
            if (differs == null) {
                return true;
            }
            if (check && missing) { // an older folder had none: nothing to hold against result.json, said all the same
                System.err.println(
                        "netns-lab: " + csv + ": missing (a folder written before runs wrote it, or removed);"
                                + " nothing to check it against; report without --check writes it from result.json");
                return true;
            }
            if (check) {
                System.err.println("netns-lab: " + csv + ": " + differs
                        + ": not result.json's figures (was one of them edited?); report without --check writes it"
                        + " again from them");
                return false;
            }
            ResultsFolder.writeSummary(dir, record);
            System.err.println("netns-lab: " + csv + ": written again from result.json ("
                    + (missing ? "it was missing" : "it differed: " + differs) + ")");
            return true;
        } catch (IOException e) {
            System.err.println("netns-lab: " + csv + ": cannot be " + (check ? "read" : "read or written") + " ("
                    + SavedFile.reason(e) + ")");
            return false;
        }
    }

    /** Prints the console report: the summary, the overrides and the sensitivity study. */
    static void printSummary(RunRecord record) {
        System.out.print(ConsoleReport.render(record));
    }
}
