/** Problems found in a spec, with file, line, column and a stable code, and the exceptions that carry them. */
@NullMarked
package io.github.retrytopology.model.problem;

import org.jspecify.annotations.NullMarked;
