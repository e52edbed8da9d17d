/** Fixed sizes of the timeline drawing, in CSS pixels. */
export const GEOMETRY = {
  /** The label column left of the plot. */
  labelWidth: 210,
  plotWidth: 1080,
  rightPad: 36,
  /** A section heading row (members, leases, clients). */
  sectionHeight: 20,
  /** One row of marker labels above the axis; at most `markerRows` rows, then labels are left off. */
  markerRowHeight: 13,
  markerRows: 4,
  axisHeight: 28,
  harnessHeight: 34,
  memberHeight: 32,
  leaseHeight: 50,
  clientRowHeight: 15,
  ctlHeight: 22,
  bottomPad: 10,
} as const;

export const TOTAL_WIDTH = GEOMETRY.labelWidth + GEOMETRY.plotWidth + GEOMETRY.rightPad;
