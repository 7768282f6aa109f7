package org.netnslab.cli;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/**
 * The command line: {@code run}, {@code list}, {@code validate}, {@code report}, {@code calibrate} and
 * {@code worker}, a class each; here picocli's set-up (help, version, errors) and the process's exit. Exit status:
 * 0 the command completed (invariant violations are results), 2 a bad command line, configuration or output folder
 * (for {@code report}, saved results missing or unreadable), 1 the command itself failed (an OutOfMemoryError
 * included, or stdout could not be written), 3 with {@code --check} when the verdict fails
 * ({@link org.netnslab.report.Verdict#passes}), 130 / 143 interrupted by SIGINT / SIGTERM ({@link Stops}).
 */
@Command(
        name = "netns-lab",
        scope = ScopeType.INHERIT, // every subcommand has --help and --version too
        mixinStandardHelpOptions = true,
        versionProvider = HelpText.Version.class,
        description = "Actor-based model of the Linux network-namespace lifecycle: run load-test scenarios that compare"
                + " kernel designs side by side.",
        subcommands = {
            RunCommand.class,
            ListCommand.class,
            ValidateCommand.class,
            ReportCommand.class,
            CalibrateCommand.class,
            WorkerCommand.class
        })
public final class Main implements Callable<Integer> {
    /** The version {@code -V} prints: the Maven project's, e.g. {@code netns-lab 0.1.0-SNAPSHOT}. */
    static final String VERSION = HelpText.VERSION;
    /** Exit status of a bad command line or configuration. */
    public static final int EXIT_CONFIG = 2;
    /** Exit status of a run that failed. */
    public static final int EXIT_FAILED = 1;
    /** Exit status of {@code --check} when the verdict fails: a seed comparison disagrees or a must-hold invariant broke. */
    public static final int EXIT_CHECK = 3;

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        setUp();
        int status;
        try {
            status = execute(args);
            status = stdoutIsPipe() ? status : checkStdout(status, System.out, System.err); // `| head` is no error
        } catch (OutOfMemoryError e) { // outside a run (a run catches its own and says where it was)
            Stops.outOfMemory(e);
            outOfMemory = true;
            Stops.sayFatal(() -> "netns-lab: " + outOfMemory(e));
            status = EXIT_FAILED;
        }
        Stops.exiting(status, outOfMemory);
        if (outOfMemory) { // its one line is said; the model's threads may hold anything: no shutdown hooks to wait on
            Stops.awaitFatalLine(); // when the exit hook claimed the line first, it is out before the halt
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(status);
        }
        if (Stops.stopping()) { // a signal's handler is saying its line and halts with 128 + n: that status, not ours
            awaitHalt();
        }
        System.exit(status);
    }

    /** The longest {@link #awaitHalt} waits, ms: a handler's hook (a probe's clean-up) takes seconds at most. */
    static final long AWAIT_HALT_MS = 30_000;

    /**
     * Waits, at most {@link #AWAIT_HALT_MS}, for a signal's handler to halt: a command that ends because the signal
     * stopped it would otherwise race the handler's {@link Runtime#halt} with its own exit status (a coordinator
     * stopped while its workers ran exited 1 now and then, not 143).
     */
    private static void awaitHalt() {
        try {
            Thread.sleep(AWAIT_HALT_MS); // the halt ends the process during it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * What the process has before any command: stderr without Akka's fatal-error report, logback started, the
     * handlers of signals and of an exit netns-lab did not ask for ({@link Stops}), and the {@link Watchdog}.
     */
    static void setUp() {
        System.setProperty("java.awt.headless", "true"); // charts are drawn to SVG, never to a screen
        // Akka's fatal-error report (the stack trace of an OutOfMemoryError in an actor) is left out: Stops says it in
        // one line
        System.setErr(new PrintStream(
                new FatalTraceFilter(new FileOutputStream(FileDescriptor.err)), true, Charset.defaultCharset()));
        // Initialise logback before Akka's logger starts on another thread, so no log call is replayed.
        org.slf4j.LoggerFactory.getLogger(Main.class);
        Stops.install();
        Watchdog.start(); // ends a process the heap's exhaustion or a stalled exit would leave hanging
    }

    /** The folder a command's results were put in (set once they are), for the line a lost stdout prints. */
    static volatile Path savedIn;

    /** Set when a run ended on an OutOfMemoryError: the JVM then halts after its one line, hooks not run. */
    static volatile boolean outOfMemory;

    /**
     * A write error on stdout (a full disk, {@code > /dev/full}, a closed pipe) is lost by {@link PrintStream}:
     * say it, and end with status 1 when the command had otherwise completed.
     *
     * @param status the command's exit status
     * @param out standard output, after the command
     * @param err standard error
     * @return the status to exit with
     */
    static int checkStdout(int status, PrintStream out, PrintStream err) {
        if (!out.checkError()) {
            return status;
        }
        Path saved = savedIn;
        err.println("netns-lab: could not write to standard output (a full disk or a closed pipe?): what the command"
                + " printed there is lost" + (saved == null ? "" : "; its results are written and kept in " + saved)
                + (status == 0 ? "" : "; it had ended with status " + status));
        return status == 0 ? EXIT_FAILED : status;
    }

    /**
     * @return whether stdout is a pipe: the only write error there is its reader going away ({@code | head}),
     *     which is no error of the command's (Linux's /proc/self/fd/1 names a pipe {@code pipe:[inode]})
     */
    static boolean stdoutIsPipe() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString().startsWith("pipe:");
        } catch (IOException | UnsupportedOperationException e) {
            return false; // not Linux, or no /proc: a write error is reported as one
        }
    }

    /** @return what an OutOfMemoryError means and what to do about it, in one line */
    static String outOfMemory(OutOfMemoryError e) {
        return outOfMemory(e.getMessage());
    }

    /**
     * @param cause what ran out, e.g. "Java heap space" (an OutOfMemoryError's message)
     * @return what running out of memory means and what to do about it, in one line
     */
    static String outOfMemory(String cause) {
        return "out of memory (" + cause + ", max heap " + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " MiB usable): " + MORE_HEAP;
    }

    /** What to do when results could not be written into --out (a full disk, a read-only file system). */
    static final String NO_ROOM = "make room there, or give another --out, and run again";

    /**
     * What to do when the heap ran out. The variable replaces the launcher's options whole, so the suggestion keeps
     * its collector. A constant: the lines made before the heap runs out are built from it.
     */
    static final String MORE_HEAP = "give the JVM more heap, e.g. NETNS_LAB_JAVA_OPTS='-Xms1g -Xmx8g"
            + " -XX:+UseParallelGC' (these replace the launcher's -Xms1g -Xmx4g -XX:+UseParallelGC), or run a smaller"
            + " population";

    /**
     * Runs a command without exiting the JVM (for tests).
     *
     * @param args the command line
     * @return the exit status
     */
    public static int execute(String... args) {
        savedIn = null; // this command's, not an earlier one's in the same JVM (tests run many)
        if (args.length > 0 && args[0].equals("help")) { // git's habit: help [command] is that command's --help
            boolean whole = args.length == 1 || args[1].startsWith("-") || args[1].equals("help");
            args = whole ? new String[] {"--help"} : new String[] {args[1], "--help"};
        }
        CommandLine cl = new CommandLine(new Main());
        cl.setUsageHelpWidth(HelpText.UNWRAPPED); // wrapped by HelpText, at spaces only
        cl.setExecutionStrategy(Main::helpOrRun);
        cl.setParameterExceptionHandler(Main::badArguments);
        cl.registerConverter(Integer.class, s -> number(s, Integer::valueOf, "a whole number"));
        cl.registerConverter(Integer.TYPE, s -> number(s, Integer::valueOf, "a whole number"));
        cl.registerConverter(Long.class, s -> number(s, Long::valueOf, "a whole number"));
        cl.registerConverter(Long.TYPE, s -> number(s, Long::valueOf, "a whole number"));
        cl.registerConverter(Double.class, s -> number(s, Double::valueOf, "a number"));
        cl.registerConverter(Double.TYPE, s -> number(s, Double::valueOf, "a number"));
        return cl.execute(args);
    }

    /**
     * An option's number, refused in words a user reads (picocli's own message names Java's types: "'abc' is not a
     * double").
     */
    private static <T> T number(String text, java.util.function.Function<String, T> parse, String what) {
        try {
            T v = parse.apply(text.strip());
            if (v instanceof Double d && Double.isInfinite(d) && !text.strip().matches("(?i)[+-]?infinity")) {
                throw new CommandLine.TypeConversionException( // 1e400: a number, past a double's range
                        org.netnslab.settings.HoconSyntax.cut(org.netnslab.settings.HoconSyntax.printable(text))
                                + " is too large");
            }
            if (v instanceof Double d && !Double.isFinite(d)) { // Java reads NaN and Infinity: no option takes them
                throw new NumberFormatException(text);
            }
            return v;
        } catch (NumberFormatException e) {
            String shown = org.netnslab.settings.HoconSyntax.cut(org.netnslab.settings.HoconSyntax.printable(text));
            throw new CommandLine.TypeConversionException(
                    text.strip().matches("[+-]?\\d+") ? shown + " is too large" : "'" + shown + "' is not " + what);
        }
    }

    /** --help and -V of any command, else the command. */
    private static int helpOrRun(CommandLine.ParseResult parsed) {
        // picocli leaves an unknown command unmatched when --help is given too: say so, as without --help
        if (!parsed.hasSubcommand()
                && !parsed.unmatched().isEmpty()
                && !parsed.unmatched().get(0).startsWith("-")) {
            System.err.println(HelpText.unknownCommand(
                    parsed.unmatched().get(0),
                    List.copyOf(
                            parsed.commandSpec().commandLine().getSubcommands().keySet())));
            return EXIT_CONFIG;
        }
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested()) {
                System.setProperty("netns-lab.help.out-dir", outDirDefault());
                System.out.println(HelpText.usage(p.commandSpec().commandLine()));
                return 0;
            }
            if (p.isVersionHelpRequested()) {
                System.out.println(VERSION);
                return 0;
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    /** @return netns-lab.run.out-dir as conf/application.conf sets it, for run --help */
    private static String outDirDefault() {
        try {
            return ConfigFactory.load().getString("netns-lab.run.out-dir");
        } catch (ConfigException e) {
            return "target/netns-lab"; // reference.conf's; the run itself reports the configuration's problem
        }
    }

    /**
     * A command line picocli cannot parse: an unknown command gets the list of commands, the rest picocli's message on
     * one line with where the options are listed.
     */
    private static int badArguments(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        CommandLine root = cmd.getCommandSpec().root().commandLine();
        if (args.length > 0
                && !args[0].startsWith("-")
                && !root.getSubcommands().containsKey(args[0])) {
            // picocli skips an unknown first word and may then fail on the command after it ("help run")
            System.err.println(HelpText.unknownCommand(
                    args[0], List.copyOf(root.getSubcommands().keySet())));
            return EXIT_CONFIG;
        }
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && cmd.getCommandSpec().parent() == null
                && !u.getUnmatched().isEmpty()
                && !u.getUnmatched().get(0).startsWith("-")) {
            System.err.println(HelpText.unknownCommand(
                    u.getUnmatched().get(0), List.copyOf(cmd.getSubcommands().keySet())));
            return EXIT_CONFIG;
        }
        if (e.getCause() instanceof CommandLine.TypeConversionException t) { // a value of the wrong kind: one line
            String option = e.getArgSpec() instanceof CommandLine.Model.OptionSpec o
                    ? o.longestName()
                    : e.getArgSpec() == null ? "a value" : e.getArgSpec().paramLabel();
            System.err.println("netns-lab: " + option + ": " + t.getMessage() + " ("
                    + cmd.getCommandSpec().qualifiedName() + " --help lists the options)");
            return EXIT_CONFIG;
        }
        // one line, as every other refused input: the options are a --help away, not a screenful under the error
        String what = e.getMessage();
        boolean option = false;
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && !u.getUnmatched().isEmpty()) {
            // picocli lists an unknown option's value as an option too ("Unknown options: '--scal', '0.1'")
            String first = u.getUnmatched().get(0);
            option = first.startsWith("-");
            what = option
                    ? "unknown option '" + first + "'"
                    : "'" + first + "' is one argument more than "
                            + cmd.getCommandSpec().qualifiedName() + " takes";
        }
        System.err.println(
                "netns-lab: " + what + " (" + cmd.getCommandSpec().qualifiedName() + " --help lists the options)");
        if (option) {
            CommandLine.UnmatchedArgumentException.printSuggestions(
                    (CommandLine.UnmatchedArgumentException) e, System.err);
        }
        return EXIT_CONFIG;
    }

    @Override
    public Integer call() {
        System.err.println(HelpText.usage(new CommandLine(this).setUsageHelpWidth(HelpText.UNWRAPPED)));
        return EXIT_CONFIG;
    }
}
