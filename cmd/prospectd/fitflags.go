package main

import (
	"fmt"

	"github.com/openprospect/prospectd/index/embedding"
)

// defaultLabelDims is --label-dims' default: the label directions a new
// fit of the built-in model learns from the fit sample's industry labels
// (decisions.md, "Label directions on by default (2026-11-27)"). A sample
// without labels fits as with 0.
const defaultLabelDims = embedding.DefaultLabelDims

// fitFlags configure a fit of the built-in model: a new index's first
// load (demo, ingest, serve --demo) and a refit. An index keeps the model
// it was fitted with until it is refitted.
type fitFlags struct {
	labelDims *int
}

func addFitFlags(fs *flagSet) fitFlags {
	return fitFlags{
		labelDims: fs.Int("label-dims", "PROSPECT_LABEL_DIMS", defaultLabelDims,
			fmt.Sprintf("label directions a new fit of the built-in embedder learns from the records' industry labels (0: none; at most %d); "+
				"used by a new index's first load and by refits, an existing index keeps its model until refitted", embedding.DefaultDim-1)),
	}
}

// options returns the fit options the flags select.
func (f fitFlags) options() (embedding.Options, error) {
	n := *f.labelDims
	if n < 0 || n >= embedding.DefaultDim {
		return embedding.Options{}, fmt.Errorf("--label-dims: must be 0-%d, got %d", embedding.DefaultDim-1, n)
	}
	return embedding.Options{LabelDims: n}, nil
}
