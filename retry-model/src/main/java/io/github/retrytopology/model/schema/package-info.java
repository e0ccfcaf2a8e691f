/** The JSON Schema of retry.yml, derived from the keys the reader knows, for editors and checks. */
@NullMarked
package io.github.retrytopology.model.schema;

import org.jspecify.annotations.NullMarked;
