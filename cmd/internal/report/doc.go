// Package report renders what ignn's commands write for people: comparison
// tables (text, markdown, CSV) and the notes under them, plots (PNG + SVG), the paper's published
// numbers beside ours, and embedding exports (NPY, TSV). Metrics themselves
// are computed in eval; every file is written atomically through
// data.WriteFileAtomic.
package report
