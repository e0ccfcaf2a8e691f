/** The one validator: every rule over a draft spec, each problem with its position and code. */
package io.github.retrytopology.model.validate;
