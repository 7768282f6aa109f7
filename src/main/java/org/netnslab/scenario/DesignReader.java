package org.netnslab.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.netnslab.design.Design;
import org.netnslab.design.OtherKeys;
import org.netnslab.design.Strategies;
import org.netnslab.settings.HoconChecker;
import org.netnslab.settings.NearestKey;

/**
 * A scenario's designs: its {@code model} block over reference.conf's, its {@code custom-designs},
 * and the {@code designs} it runs, each checked key by key against {@link Strategies#ROWS}. Problems
 * go to the scenario's {@link HoconChecker}, each at the file and line of the value at fault.
 */
final class DesignReader {
    private final Config reference;
    private final HoconChecker c;

    /**
     * @param netnsLabReference the {@code netns-lab} block of the reference configuration (model defaults,
     *     named designs)
     * @param c the scenario's checker
     */
    DesignReader(Config netnsLabReference, HoconChecker c) {
        this.reference = netnsLabReference;
        this.c = c;
    }

    /** @return every design a scenario may name: reference.conf's and its own custom ones */
    Set<String> known() {
        Set<String> known = new LinkedHashSet<>(reference.getObject("designs").keySet());
        Config conf = c.conf();
        if (conf.hasPath("custom-designs") && conf.getValue("custom-designs").valueType() == ConfigValueType.OBJECT) {
            known.addAll(conf.getObject("custom-designs").keySet());
        }
        return known;
    }

    /** @return the designs the scenario runs, by name, in its order; those with problems left out */
    Map<String, Design> read() {
        Config conf = c.conf();
        Map<String, Design> out = new LinkedHashMap<>();
        Config model = reference.getConfig("model");
        boolean blocksOk = true;
        if (conf.hasPath("model") && c.object("model") != null) {
            c.knownLeaves(conf.getConfig("model"), model, "model.");
            model = conf.getConfig("model").withFallback(model);
            design("model", model, "model."); // checked once, whether or not a design uses the values
            // a block given as no object hides reference.conf's keys under it: each design would only echo that
            blocksOk = StrategyBlocks.notBlocks(c, model, "model.", null).isEmpty();
        }
        Config custom = customDesigns();
        List<String> names = c.stringList("designs", "design names");
        if (names == null) {
            return out;
        }
        if (names.isEmpty()) {
            c.problem("designs", "must name at least one design");
        }
        Config named = reference.getConfig("designs");
        Set<String> seen = new LinkedHashSet<>();
        Map<String, Config> owns = new LinkedHashMap<>();
        Map<String, Config> models = new LinkedHashMap<>(); // each design's own keys over the scenario's model
        // said once, all of them (one problem per key is kept), before any design's own problems
        List<String> unknown = names.stream()
                .filter(n -> own(n, custom, named) == null)
                .distinct()
                .map(n -> "'" + n + "'" + meant(n, named, custom))
                .toList();
        if (!unknown.isEmpty()) {
            c.problem(
                    "designs",
                    (unknown.size() == 1 ? "unknown design " : "unknown designs ") + String.join(", ", unknown)
                            + "; named designs: " + new TreeSet<>(named.root().keySet())
                            + (custom.isEmpty()
                                    ? ""
                                    : ", custom-designs: "
                                            + new TreeSet<>(custom.root().keySet())));
        }
        for (String name : names) {
            if (!seen.add(name)) {
                c.problem("designs", "design '" + name + "' is listed twice");
                continue;
            }
            Config own = own(name, custom, named);
            if (own == null) {
                continue; // named above
            }
            if (!blocksOk) {
                continue;
            }
            Config designModel = own.withoutPath("description").withFallback(model);
            Design d = design(name, designModel, "");
            if (d != null) {
                out.put(name, d);
                owns.put(name, own);
                models.put(name, designModel);
            }
        }
        if (c.problems().isEmpty()) { // a refused file: its errors only
            Config own = conf.hasPath("model") && c.object("model") != null
                    ? conf.getConfig("model")
                    : ConfigFactory.empty();
            ShadowedModelKeys.warn("model.", own, owns);
            ShadowedModelKeys.warn("netns-lab.model.", ShadowedModelKeys.configured(reference, own), owns);
        }
        // a custom design the list does not run is checked all the same: a --set of designs may run it later
        for (String name : custom.root().keySet()) {
            String key = ConfigUtil.joinPath(name);
            if (!seen.contains(name)
                    && HoconChecker.isSafeName(name)
                    && custom.getValue(key).valueType() == ConfigValueType.OBJECT) {
                design(name, custom.getConfig(key).withoutPath("description").withFallback(model), "");
            }
        }
        return c.problems().isEmpty() ? OtherKeys.shown(out, models, model) : out;
    }

    /**
     * @return a design's own keys: the scenario's custom design of that name, else the named design; null for a name
     *     neither defines
     */
    private static Config own(String name, Config custom, Config named) {
        String key = ConfigUtil.joinPath(name);
        if (custom.hasPath(key) && custom.getValue(key).valueType() == ConfigValueType.OBJECT) {
            return custom.getConfig(key);
        }
        return named.hasPath(key) ? named.getConfig(key) : null;
    }

    /**
     * Checks the merged {@code netns-lab.model} once, and the named designs a configuration file adds or changes
     * ({@code netns-lab.designs} of a {@code --config} file), every one whether or not a scenario runs it: each must be an object of
     * known model keys (and a {@code description}) whose values, over the merged {@code netns-lab.model},
     * read as every row of {@link Strategies#ROWS} does; none may redefine a design of reference.conf.
     *
     * @param names the designs the file defines, each with where it does (its own keys: the file itself is not
     *     resolved, so its substitutions and optional overrides stay HOCON's to resolve)
     * @param merged the merged {@code netns-lab} block the designs run under; its values keep the file and
     *     line they came from
     * @param source the file's name, for a problem no value locates
     * @return the problems, each at the file and line of the value at fault, in the order of the files and lines;
     *     empty when all is well
     */
    static List<org.netnslab.settings.ConfigProblem> namedDesignProblems(
            Map<String, com.typesafe.config.ConfigOrigin> names, Config merged, String source) {
        List<org.netnslab.settings.ConfigProblem> problems = new java.util.ArrayList<>();
        HoconChecker c = new HoconChecker(merged, source, problems);
        Config known = ConfigFactory.defaultReference().getConfig("netns-lab.model");
        DesignReader reader = new DesignReader(merged, c);
        // the merged model once: a bad value there would otherwise come back once per design
        if (reader.designAt("model", merged.getConfig("model"), "netns-lab.model.", "") == null) {
            return problems;
        }
        Set<String> builtIn =
                ConfigFactory.defaultReference().getObject("netns-lab.designs").keySet();
        ConfigObject designs = merged.getObject("designs");
        for (Map.Entry<String, com.typesafe.config.ConfigOrigin> own : names.entrySet()) {
            String name = own.getKey();
            ConfigValue v = designs.get(name);
            String path = "netns-lab.designs." + ConfigUtil.joinPath(name);
            if (v == null) {
                continue;
            }
            // the design as a whole is located where the file defines it (merged, a redefined one is also
            // reference.conf's)
            com.typesafe.config.ConfigOrigin at = own.getValue() != null ? own.getValue() : v.origin();
            // a seed's comparison would silently run other rules under a built-in design's name
            if (reader.designShaped(name, v, at, path, builtIn.contains(name) ? Design.redefined(name) : null)) {
                Config design = ((ConfigObject) v).toConfig().withoutPath("description");
                int before = problems.size();
                c.knownLeaves(design, known, path + ".");
                reader.refuseFaults((ConfigObject) v, path);
                if (problems.size() == before) {
                    reader.designAt(name, design.withFallback(merged.getConfig("model")), path + ".", "");
                }
            }
        }
        problems.sort(java.util.Comparator.comparing(org.netnslab.settings.ConfigProblem::source)
                .thenComparingInt(
                        org.netnslab.settings.ConfigProblem::line)); // each file's order (includes are files too)
        return problems;
    }

    /** @return where a named design is defined: reference.conf, or the --config file and line */
    private static String definedIn(com.typesafe.config.ConfigOrigin o) {
        if (o.resource() != null && o.resource().endsWith("reference.conf")) {
            return "reference.conf";
        }
        // a design merged from several places (an include) names them all: its first is where it starts
        return o.filename() != null
                ? o.filename() + (o.lineNumber() > 0 ? ":" + o.lineNumber() : "")
                : o.description()
                        .replaceFirst("^merge of ", "")
                        .replaceFirst(",.*", "")
                        .replace(": ", ":");
    }

    /** @return the scenario's custom designs (checked: own names, objects of known model keys), or empty */
    private Config customDesigns() {
        Config conf = c.conf();
        if (!conf.hasPath("custom-designs") || c.object("custom-designs") == null) {
            return ConfigFactory.empty();
        }
        for (Map.Entry<String, ConfigValue> e : conf.getObject("custom-designs").entrySet()) {
            String path = "custom-designs." + ConfigUtil.joinPath(e.getKey());
            if (designShaped(
                    e.getKey(),
                    e.getValue(),
                    e.getValue().origin(),
                    path,
                    reference.getObject("designs").containsKey(e.getKey())
                            ? "shadows the named design '" + e.getKey() + "' of "
                                    + definedIn(reference
                                            .getValue("designs." + ConfigUtil.joinPath(e.getKey()))
                                            .origin())
                                    + "; give the custom design its own name"
                            : null)) {
                c.knownLeaves(
                        ((ConfigObject) e.getValue()).toConfig().withoutPath("description"),
                        reference.getConfig("model"),
                        path + ".");
                refuseFaults((ConfigObject) e.getValue(), path);
            }
        }
        return conf.getConfig("custom-designs");
    }

    /**
     * A problem at each fault switch a design defined outside reference.conf sets.
     *
     * @param design the design's object
     * @param path where it is, e.g. {@code custom-designs.slow}
     */
    private void refuseFaults(ConfigObject design, String path) {
        Config d = design.toConfig();
        for (String key : Design.FAULT_KEYS) {
            if (d.hasPath(key)) {
                c.problemAt(
                        d.getValue(key).origin(),
                        path + "." + key,
                        "fault switches are not a design's: set them in the scenario's model block (every design"
                                + " alike)");
            }
        }
    }

    /**
     * The checks of a design defined outside reference.conf (a scenario's custom design, a configuration file's
     * named one) before its keys are read: a name that can name actors and output files, not a built-in design's, an
     * object, and no unquoted dotted name ({@code host-6.18 { ... }} is host-6 { 18 { ... } }). The first that fails
     * is a problem at {@code at}.
     *
     * @param shadows the problem to report when the name is a built-in design's, else null
     * @return true when the design passed them: its keys are checked next
     */
    private boolean designShaped(
            String name, ConfigValue v, com.typesafe.config.ConfigOrigin at, String path, String shadows) {
        String badName = Design.nameProblem(name); // it names an actor and the output files
        if (badName != null) {
            c.problemAt(at, path, badName);
            return false;
        }
        if (shadows != null) {
            c.problemAt(at, path, shadows);
            return false;
        }
        if (v.valueType() != ConfigValueType.OBJECT) {
            c.problemAt(at, path, Design.NOT_AN_OBJECT);
            return false;
        }
        String dotted = dottedName(name, (ConfigObject) v);
        if (dotted != null) {
            c.problemAt(
                    at,
                    path,
                    "holds no model key but '" + dotted.substring(name.length() + 1) + "': a design name"
                            + " with a dot must be quoted, e.g. \"" + dotted + "\" { ... }");
            return false;
        }
        return true;
    }

    /**
     * HOCON reads an unquoted {@code host-6.18.44 { ... }} as {@code host-6 { 18 { 44 { ... } } }}: one object under
     * each key that is no model group, down to an object of model keys.
     *
     * @param name the design's key
     * @param design its object
     * @return the dotted name the user most likely wrote, e.g. {@code host-6.18.44}, when the object is such a chain
     *     ending in an object whose keys are all model keys (or a description); else null (a mistyped group is then
     *     reported as an unknown key)
     */
    private String dottedName(String name, ConfigObject design) {
        StringBuilder dotted = new StringBuilder(name);
        ConfigObject o = design;
        int depth = 0;
        while (o.size() == 1) {
            Map.Entry<String, ConfigValue> only = o.entrySet().iterator().next();
            if (only.getValue().valueType() != ConfigValueType.OBJECT
                    || only.getKey().equals("description")
                    || reference.getObject("model").containsKey(only.getKey())) {
                break;
            }
            dotted.append('.').append(only.getKey());
            o = (ConfigObject) only.getValue();
            depth++;
        }
        if (depth == 0) {
            return null;
        }
        Config leaves = o.toConfig().withoutPath("description");
        Config model = reference.getConfig("model");
        for (Map.Entry<String, ConfigValue> leaf : leaves.entrySet()) {
            if (!model.hasPath(leaf.getKey())) {
                return null;
            }
        }
        return dotted.toString();
    }

    /**
     * Reads every row of the strategy table from a design's model config.
     *
     * @param name the design's name
     * @param model its keys over the scenario's model over reference.conf's
     * @param pathPrefix "model." while the scenario's model block itself is checked (problems are then
     *     the block's own), else ""
     * @return the design, or null after a problem
     */
    private Design design(String name, Config model, String pathPrefix) {
        return designAt(name, model, pathPrefix, pathPrefix.isEmpty() ? "design " + name + ": " : "");
    }

    /**
     * @return whether the value at {@code key} of a design's model is the configuration's {@code netns-lab.model}
     *     value, set over reference.conf (by conf/application.conf, {@code --config} or {@code -D}), not a design's
     *     or the scenario's
     */
    private boolean configurations(Config model, String key) {
        if (!model.hasPath(key) || !reference.hasPath("model." + key)) {
            return false;
        }
        ConfigOrigin origin = model.getValue(key).origin();
        return origin.equals(reference.getValue("model." + key).origin())
                && (origin.resource() == null || !origin.resource().endsWith("reference.conf"));
    }

    private Design designAt(String name, Config model, String pathPrefix, String where) {
        int before = c.problems().size();
        Set<String> notBlocks = StrategyBlocks.notBlocks(c, model, pathPrefix, where);
        for (Strategies.Row<?> row : Strategies.ROWS) {
            if (notBlocks.stream().anyMatch(b -> row.key().startsWith(b + "."))) {
                continue; // said once, for the block
            }
            // a value every design inherits from the configuration's own model (--config) is that key's problem
            boolean own = configurations(model, row.key());
            String path = (own ? "netns-lab.model." : pathPrefix) + row.key();
            try {
                row.setting().read(model);
            } catch (ConfigException e) {
                c.problemAt(e.origin(), path, (own ? "" : where) + HoconChecker.bare(e));
            } catch (IllegalArgumentException e) {
                c.problemAt(model.getValue(row.key()).origin(), path, (own ? "" : where) + e.getMessage());
            }
        }
        return c.problems().size() == before ? Design.fromConfig(name, model) : null;
    }

    /** @return " (did you mean X?)" for a design name one or two edits from a named or custom design's, else "" */
    private static String meant(String name, Config named, Config custom) {
        List<String> known = new ArrayList<>(named.root().keySet());
        known.addAll(custom.root().keySet());
        String near = NearestKey.of(name, known);
        return near == null ? "" : " (did you mean " + near + "?)";
    }
}
