package org.netnslab.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigRenderOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What a worker needs to run a coordinator's design runs: the same command line, read against its own
 * files. Each node loads the scenario itself (its own copy of the scenario file and of {@code --config},
 * at the same paths, and its own netns-lab); {@link #fingerprint} tells whether both read the same.
 *
 * @param file the scenario file, as given to {@code run} (relative paths: against the worker's working folder)
 * @param sets the {@code --set} overrides ({@code --sweep} included), in order
 * @param scale {@code --scale}
 * @param repeat {@code --repeat}, or 0 for the scenario's own
 * @param samples {@code --sensitivity}, or 0 for the scenario's own
 * @param config the {@code --config} file, or "" for none
 */
public record RunInputs(String file, List<String> sets, double scale, int repeat, int samples, String config)
        implements ClusterMessage {

    /** Copies the list. */
    public RunInputs {
        sets = List.copyOf(sets);
    }

    /**
     * What a run's figures depend on, as two hashes: the inputs (this record, the scenario file's bytes and its keys
     * as read with the files it includes, and the same of the {@code --config} file) and the model's configuration (the merged {@code netns-lab.model},
     * {@code designs}, {@code execution}, {@code machine} and {@code random-seed}: reference.conf and
     * conf/application.conf may differ between hosts).
     *
     * @param version the node's netns-lab version
     * @param system the node's merged configuration
     * @param setsAsRead the loaded scenario's {@code --set} overrides as this node read them
     *     ({@link org.netnslab.scenario.Scenario#overrides}: one that substitutes an environment variable with the
     *     value it read, which may differ between hosts)
     * @return {@code <inputs hash>/<model configuration hash>/<scenario file hash>/<--config file hash>}, hex (the
     *     last two say which file differs where the first does)
     * @throws IOException when a file cannot be read
     */
    public String fingerprint(String version, Config system, List<String> setsAsRead) throws IOException {
        byte[] scenario = withIncludes(Path.of(file));
        byte[] extra = config.isEmpty() ? new byte[0] : withIncludes(Path.of(config));
        MessageDigest inputs = sha256();
        update(inputs, version);
        update(inputs, toString());
        update(inputs, setsAsRead.toString());
        inputs.update(scenario);
        inputs.update(extra);
        MessageDigest model = sha256();
        for (String key : MODEL_KEYS) {
            update(model, key + "=" + rendered(system, key));
        }
        return HexFormat.of().formatHex(inputs.digest(), 0, 8) + "/"
                + HexFormat.of().formatHex(model.digest(), 0, 8) + "/"
                + HexFormat.of().formatHex(sha256().digest(scenario), 0, 4) + "/"
                + HexFormat.of().formatHex(sha256().digest(extra), 0, 4);
    }

    /**
     * @param file a scenario file or a {@code --config} file
     * @return its bytes, then its keys as read with the files it includes and the environment variables it reads
     *     (one line, keys sorted): a file that includes another whose copies differ between hosts reads otherwise
     * @throws IOException when it cannot be read
     */
    private static byte[] withIncludes(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        String read;
        try { // substitutions of reference.conf's keys stay as written
            read = com.typesafe.config.ConfigFactory.parseFile(file.toFile())
                    .resolve(com.typesafe.config.ConfigResolveOptions.defaults().setAllowUnresolved(true))
                    .root()
                    .render(ConfigRenderOptions.concise());
        } catch (com.typesafe.config.ConfigException e) { // both nodes loaded it: the bytes then say what differs
            read = "";
        }
        byte[] keys = read.getBytes(StandardCharsets.UTF_8);
        byte[] out = java.util.Arrays.copyOf(bytes, bytes.length + 1 + keys.length);
        System.arraycopy(keys, 0, out, bytes.length + 1, keys.length);
        return out;
    }

    /**
     * @param worker a worker's fingerprint
     * @param coordinator the coordinator's
     * @return what differs between the two, in words: the scenario file, the --config file, the model's
     *     configuration, or (with the files and model alike) the run's options or netns-lab version
     */
    public static String differs(String worker, String coordinator) {
        String[] w = worker.split("/");
        String[] c = coordinator.split("/");
        List<String> what = new java.util.ArrayList<>(); // one version on both sides (compared first): one format
        if (!w[2].equals(c[2])) {
            what.add("the scenario file (or a file it includes, or an environment variable it reads)");
        }
        if (!w[3].equals(c[3])) {
            what.add("the --config file (or a file it includes)");
        }
        if (!w[1].equals(c[1])) {
            what.add("the model's configuration (reference.conf, conf/application.conf, a -D setting in"
                    + " NETNS_LAB_JAVA_OPTS, or an environment variable they read)");
        }
        return what.isEmpty()
                ? "the run's options (--set, --scale, --repeat, or an environment variable a --set reads) or"
                        + " netns-lab version"
                : String.join(" and ", what);
    }

    /** The keys under {@code netns-lab} of the model's configuration, which a run's figures depend on. */
    public static final List<String> MODEL_KEYS = List.of("model", "designs", "execution", "machine", "random-seed");

    /**
     * The model's configuration keys whose values differ between two merged configurations.
     *
     * @param a one
     * @param b the other
     * @return the keys that differ, each as {@code netns-lab.KEY}, in {@link #MODEL_KEYS} order
     */
    public static List<String> modelDifferences(Config a, Config b) {
        return MODEL_KEYS.stream()
                .filter(k -> !rendered(a, k).equals(rendered(b, k)))
                .map(k -> "netns-lab." + k)
                .toList();
    }

    /** @return the value of {@code netns-lab.KEY}, rendered in one line, or "-" when it is not set */
    private static String rendered(Config system, String key) {
        String path = "netns-lab." + key;
        return system.hasPath(path) ? system.getValue(path).render(ConfigRenderOptions.concise()) : "-";
    }

    private static void update(MessageDigest d, String s) {
        d.update(s.getBytes(StandardCharsets.UTF_8));
        d.update((byte) 0);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
