package io.github.retrytopology.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesWhatJacksonReadsBackUnchanged() throws Exception {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("pattern", "^cdn\\-purge\\.retry\\.1$");
        document.put("text", "quote \" backslash \\ newline \n tab \t bell \u0007 é");
        document.put("numbers", List.of(1, 4_294_967_295L, -2));
        document.put("flag", true);
        document.put("nested", Map.of("dead-letter-exchange", ""));

        String json = Json.write(document);

        assertThat(new ObjectMapper().readValue(json, Map.class)).isEqualTo(Map.of(
                "pattern", "^cdn\\-purge\\.retry\\.1$",
                "text", "quote \" backslash \\ newline \n tab \t bell \u0007 é",
                "numbers", List.of(1, 4_294_967_295L, -2),
                "flag", true,
                "nested", Map.of("dead-letter-exchange", "")));
    }
}
