package org.netnslab;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

/**
 * The shipped sources say what the code does and why, not which issue or day brought it: no issue numbers and no
 * calendar dates anywhere under src/main (Java, C, resources). Kernel history that the model stands for (the 2018
 * proposal, v4.16) is not a date in this sense and stays.
 */
public class SourceTextTest extends JUnitSuite {
    /** "issue #20", "issues 19", "(#21)", " #22 ": an issue number. CSS colours (#555) and HTML entities are not. */
    static final Pattern ISSUE = Pattern.compile("(?i)\\bissues?\\s*#?\\s*\\d+|(?:^|[\\s(])#\\d+\\b");

    /** 2026-12-02 or 2026-11: a calendar date or month. */
    static final Pattern DATE = Pattern.compile("\\b(?:19|20)\\d\\d-[01]\\d(?:-[0-3]\\d)?\\b");

    @Test
    public void srcMainNamesNoIssueNumberAndNoDate() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i);
                    if (ISSUE.matcher(l).find() || DATE.matcher(l).find()) {
                        found.add(f + ":" + (i + 1) + ": " + l.strip());
                    }
                }
            }
        }
        assertEquals("issue numbers or dates in src/main:\n" + String.join("\n", found), List.of(), found);
    }

    /**
     * The tests, the scenarios and the configuration too name no issue: a test's Javadoc says what it pins down.
     * (Dates stay allowed there: recordings are named by the day they were measured.)
     */
    @Test
    public void testsScenariosAndConfNameNoIssueNumber() throws IOException {
        List<String> found = new ArrayList<>();
        for (String root : List.of("src/test", "load-tests", "conf")) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                for (Path f : files.filter(Files::isRegularFile)
                        .filter(p -> !p.endsWith("SourceTextTest.java")
                                && !p.toString().endsWith(".json"))
                        .sorted()
                        .toList()) {
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        if (ISSUE.matcher(lines.get(i)).find()) {
                            found.add(f + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertEquals("issue numbers:\n" + String.join("\n", found), List.of(), found);
    }

    /** A class a reader takes in at once: none in src/main over 400 lines, as formatted. */
    @Test
    public void noClassInSrcMainIsOver400Lines() throws IOException {
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                long n = Files.readAllLines(f).size();
                if (n > 400) {
                    tooLong.add(f + ": " + n + " lines");
                }
            }
        }
        assertEquals(List.of(), tooLong);
    }

    @Test
    public void thePatternsFindIssueNumbersAndDatesButNotColoursOrKernelYears() {
        for (String s : List.of(
                "the machine before issue #20", "(issue 19)", "see #21 for the cluster", "(#22)", "#20 made it")) {
            assertTrue(s, ISSUE.matcher(s).find());
        }
        for (String s : List.of(".note{color:#555}", "background:#4a7ebb", "&#160;", "new DecimalFormat(\"#,##0\")")) {
            assertFalse(s, ISSUE.matcher(s).find());
        }
        for (String s : List.of("measured on 2026-12-02", "the 2026-11 seed fits")) {
            assertTrue(s, DATE.matcher(s).find());
        }
        for (String s : List.of("the 2018 proposal", "v4.16 merged it", "SEQNUM 2026", "10-2026")) {
            assertFalse(s, DATE.matcher(s).find());
        }
    }
}
