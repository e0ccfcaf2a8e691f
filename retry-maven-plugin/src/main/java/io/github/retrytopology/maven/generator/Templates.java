package io.github.retrytopology.maven.generator;

import freemarker.core.CFormat;
import freemarker.core.JSONCFormat;
import freemarker.core.JavaCFormat;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;

/**
 * The FreeMarker templates, loaded once and shared: a configured {@link Configuration} is safe to use from
 * every thread. A variable a template asks for and does not get fails the rendering; {@code ?c} prints a
 * string as a Java or JSON literal, as the template's language needs.
 */
final class Templates {

    private static final Configuration JAVA = configuration(JavaCFormat.INSTANCE);
    private static final Configuration JSON = configuration(JSONCFormat.INSTANCE);

    private Templates() {
    }

    /** Loads and parses every template, so that the first rendering need not. */
    static void load() {
        try {
            for (String name : List.of(TopologySource.TEMPLATE, HandlerSource.TEMPLATE)) {
                JAVA.getTemplate(name);
            }
            for (String name : List.of(DefinitionsJson.TEMPLATE, TopologyDiagram.TEMPLATE, TopologyResource.TEMPLATE,
                    KubernetesResources.TEMPLATE)) {
                JSON.getTemplate(name);
            }
        } catch (IOException e) {
            throw new GenerationException("cannot load the templates: " + e.getMessage(), e);
        }
    }

    /** Renders a Java template, where {@code ?c} makes Java string literals. */
    static String java(String name, Object variables) {
        return render(JAVA, name, variables);
    }

    /**
     * Renders a JSON, YAML or Markdown template, where {@code ?c} makes JSON string literals: YAML reads them as its
     * double-quoted strings.
     */
    static String json(String name, Object variables) {
        return render(JSON, name, variables);
    }

    /** Renders a template of plain text, such as a properties file, that prints no literal. */
    static String text(String name, Object variables) {
        return render(JSON, name, variables);
    }

    private static String render(Configuration configuration, String name, Object variables) {
        try {
            Template template = configuration.getTemplate(name);
            StringWriter out = new StringWriter();
            template.process(variables, out);
            return out.toString();
        } catch (IOException | TemplateException e) {
            throw new GenerationException("template " + name + " failed: " + e.getMessage(), e);
        }
    }

    private static Configuration configuration(CFormat format) {
        Configuration configuration = new Configuration(Configuration.VERSION_2_3_34);
        configuration.setClassForTemplateLoading(Templates.class, "");
        configuration.setDefaultEncoding("UTF-8");
        configuration.setLocale(Locale.ROOT);
        configuration.setCFormat(format);
        configuration.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        configuration.setLogTemplateExceptions(false);
        configuration.setWrapUncheckedExceptions(true);
        configuration.setFallbackOnNullLoopVariable(false);
        configuration.setWhitespaceStripping(true);
        return configuration;
    }
}
