package demo

// Job titles, skills and department mixes of the demo contacts.

// titleRow lists the titles of one department at each seniority, highest
// first (record.Seniorities order), semicolon-separated. A row with a
// variant replaces the default row's non-empty cells for the companies of
// that variant (see titleVariant).
type titleRow struct {
	dept, variant string
	titles        [7]string
}

var titleRows = []titleRow{
	{"Executive", "", [7]string{
		"Chief Operating Officer;COO;Co-Founder;Chief Strategy Officer;Executive Chairman;Chairman of the Board;Board Member",
		"Executive Vice President;EVP Strategy;VP Strategy;Vice President of Corporate Development;SVP Corporate Strategy;VP Business Operations",
		"Director of Strategy;Head of Strategy;Director, Office of the CEO;Director of Corporate Development;Head of Business Operations;Strategy Director",
		"Strategy Manager;Business Operations Manager;Corporate Development Manager;Manager, Office of the CEO",
		"Senior Strategy Analyst;Senior Corporate Development Analyst;Senior Business Operations Analyst",
		"Strategy Analyst;Business Operations Analyst;Corporate Development Associate;Executive Business Partner",
		"Junior Strategy Analyst;Business Operations Associate;Strategy Intern"}},
	{"Technology", "", [7]string{
		"CIO;Chief Information Officer;Chief Technology Officer;CTO;Chief Information Security Officer;Chief Digital Officer;Chief Data Officer",
		"VP Information Technology;Vice President of IT;VP Technology;VP Digital;VP Infrastructure;VP Data",
		"IT Director;Director of IT;Head of IT;Director of Information Security;Head of Infrastructure;Head of Data;Director of Digital Transformation",
		"IT Manager;Infrastructure Manager;IT Operations Manager;Security Operations Manager;Data Manager;ERP Manager;Application Manager",
		"Senior Systems Administrator;Senior Network Engineer;Senior IT Specialist;Senior Security Analyst;Lead Systems Engineer;Senior Data Analyst;Senior ERP Consultant",
		"Systems Administrator;Network Engineer;IT Specialist;Security Analyst;Data Analyst;Database Administrator;Business Intelligence Analyst;Cloud Engineer",
		"IT Support Technician;Help Desk Technician;Junior Systems Administrator;IT Support Specialist;Junior Data Analyst;IT Intern"}},
	{"Technology", "sw", [7]string{
		"CTO;Chief Technology Officer;Co-Founder & CTO;Chief Information Officer;CISO;Chief Data Officer",
		"VP Engineering;Vice President of Engineering;SVP Engineering;VP Platform;VP Infrastructure;VP Data Science",
		"Director of Engineering;Engineering Director;Head of Engineering;Head of Platform;Director of Data Science;Head of Security;Director of DevOps",
		"Engineering Manager;Software Development Manager;Data Engineering Manager;QA Manager;Engineering Team Lead;Platform Engineering Manager",
		"Senior Software Engineer;Staff Software Engineer;Principal Engineer;Senior DevOps Engineer;Senior Data Engineer;Senior Backend Engineer;Senior Frontend Developer;Senior Site Reliability Engineer;Senior Data Scientist;Lead Developer;Senior Security Engineer",
		"Software Engineer;Full Stack Developer;Backend Developer;Frontend Developer;DevOps Engineer;Data Engineer;Data Scientist;QA Engineer;Mobile Developer;Site Reliability Engineer;Machine Learning Engineer;Cloud Engineer",
		"Junior Software Engineer;Junior Developer;Associate Software Engineer;Graduate Software Engineer;Software Engineering Intern;Junior QA Tester;Junior Data Analyst"}},
	{"Sales - Marketing", "", [7]string{
		"CMO;Chief Marketing Officer;Chief Revenue Officer;Chief Commercial Officer;Chief Sales Officer;Chief Growth Officer",
		"VP Sales;Vice President of Sales;VP Marketing;Vice President of Marketing;VP Business Development;SVP Sales;VP Growth;VP Revenue Operations;VP Partnerships",
		"Director of Marketing;Marketing Director;Sales Director;Director of Sales;Head of Sales;Head of Marketing;Director of Business Development;Head of Growth;Regional Sales Director;Director of Demand Generation;Brand Director",
		"Sales Manager;Marketing Manager;Regional Sales Manager;Digital Marketing Manager;Brand Manager;Business Development Manager;Demand Generation Manager;Marketing Operations Manager;Sales Team Lead;Area Sales Manager",
		"Senior Account Executive;Enterprise Account Executive;Senior Account Manager;Key Account Manager;Senior Marketing Specialist;Senior Product Marketing Manager;Senior Content Strategist;Senior SEO Specialist;Senior Sales Executive",
		"Account Executive;Account Manager;Marketing Specialist;Digital Marketing Specialist;Content Marketing Specialist;SEO Specialist;Sales Executive;Inside Sales Representative;Business Development Executive;Growth Marketer;Sales Representative",
		"Sales Development Representative;Business Development Representative;Marketing Coordinator;Marketing Assistant;Junior Account Executive;Sales Associate;Marketing Intern;Sales Assistant"}},
	{"Finance", "", [7]string{
		"CFO;Chief Financial Officer;Chief Risk Officer",
		"VP Finance;Vice President of Finance;VP Financial Planning & Analysis;SVP Finance;VP Treasury;Vice President, Controller",
		"Finance Director;Director of Finance;Head of Finance;Director of FP&A;Tax Director;Head of Treasury;Director of Accounting",
		"Finance Manager;Accounting Manager;Financial Controller;FP&A Manager;Payroll Manager;Tax Manager;Treasury Manager;Controller",
		"Senior Accountant;Senior Financial Analyst;Senior Auditor;Senior Tax Accountant;Lead Financial Analyst;Senior FP&A Analyst;Senior Credit Analyst",
		"Accountant;Financial Analyst;Auditor;Tax Accountant;Accounts Payable Specialist;Payroll Specialist;Credit Analyst;Billing Specialist",
		"Junior Accountant;Accounts Payable Clerk;Junior Financial Analyst;Accounting Assistant;Bookkeeper;Finance Intern;Audit Associate"}},
	{"Legal", "", [7]string{
		"General Counsel;Chief Legal Officer;Chief Compliance Officer",
		"VP Legal;Vice President, Legal Affairs;VP Compliance;VP Legal & Compliance",
		"Legal Director;Head of Legal;Director of Compliance;Head of Compliance;Director of Contracts",
		"Legal Manager;Compliance Manager;Contracts Manager;Legal Operations Manager",
		"Senior Counsel;Senior Legal Counsel;Senior Compliance Analyst;Senior Paralegal;Senior Contracts Specialist",
		"Legal Counsel;Corporate Counsel;Compliance Analyst;Paralegal;Contract Specialist;Compliance Officer",
		"Legal Assistant;Junior Paralegal;Compliance Assistant;Legal Intern;Junior Legal Counsel"}},
	{"Legal", "law", [7]string{
		"Managing Partner;Founding Partner;Senior Partner;Partner;Equity Partner",
		"",
		"Director of Legal Operations;Head of Litigation;Head of Knowledge Management;Director of Client Development",
		"Practice Manager;Legal Operations Manager;Litigation Support Manager;Office Manager",
		"Senior Associate;Of Counsel;Senior Paralegal;Senior Attorney;Senior Solicitor",
		"Associate;Attorney;Associate Attorney;Solicitor;Paralegal;Lawyer",
		"Junior Associate;Trainee Solicitor;Legal Assistant;Law Clerk;Legal Secretary;Summer Associate"}},
	{"Human Resources", "", [7]string{
		"Chief People Officer;CHRO;Chief Human Resources Officer",
		"VP People;VP Human Resources;Vice President of Talent;VP Talent Acquisition;SVP Human Resources",
		"HR Director;Director of Human Resources;Head of People;Director of Talent Acquisition;Head of Talent;Head of HR",
		"HR Manager;Human Resources Manager;Talent Acquisition Manager;Recruiting Manager;People Operations Manager;Learning & Development Manager;Compensation & Benefits Manager",
		"Senior HR Business Partner;Senior Recruiter;Senior Talent Acquisition Partner;Senior HR Generalist;Senior Compensation Analyst",
		"HR Generalist;Recruiter;Talent Acquisition Specialist;HR Business Partner;People Operations Specialist;Learning & Development Specialist;Technical Recruiter",
		"HR Assistant;Recruiting Coordinator;HR Coordinator;Junior Recruiter;Talent Sourcer;HR Intern"}},
	{"Medical - Science", "", [7]string{
		"Chief Scientific Officer;Chief Science Officer;Chief Quality Officer",
		"VP Quality & Regulatory;VP Research;Vice President of Scientific Affairs;VP Regulatory Affairs",
		"Director of Quality Assurance;Head of Regulatory Affairs;Laboratory Director;Head of Research;Director of Scientific Affairs",
		"Laboratory Manager;Quality Assurance Manager;Regulatory Affairs Manager;Research Manager;Health & Safety Manager",
		"Senior Scientist;Senior Research Scientist;Principal Scientist;Senior Chemist;Senior Regulatory Affairs Specialist;Senior Quality Control Analyst",
		"Scientist;Research Scientist;Chemist;Food Scientist;Environmental Scientist;Microbiologist;Regulatory Affairs Specialist;Quality Control Analyst;Occupational Health Nurse",
		"Lab Technician;Laboratory Assistant;Research Assistant;Junior Scientist;QC Technician;Lab Intern"}},
	{"Medical - Science", "pharma", [7]string{
		"Chief Scientific Officer;Chief Medical Officer;Chief Science Officer",
		"VP Clinical Affairs;VP Medical Affairs;Vice President of Research;VP Clinical Operations;VP Regulatory Affairs;VP Quality & Regulatory",
		"Medical Director;Director of Clinical Research;Head of Regulatory Affairs;Laboratory Director;Director of Clinical Development;Head of Quality Assurance",
		"Laboratory Manager;Clinical Research Manager;Regulatory Affairs Manager;Clinical Operations Manager;Quality Assurance Manager;Study Manager",
		"Senior Scientist;Senior Research Scientist;Senior Clinical Research Associate;Principal Scientist;Senior Regulatory Affairs Specialist;Senior Medical Science Liaison",
		"Scientist;Research Scientist;Clinical Research Associate;Medical Science Liaison;Regulatory Affairs Specialist;Chemist;Biostatistician;Quality Control Analyst",
		"Lab Technician;Research Assistant;Clinical Research Coordinator;Laboratory Assistant;Junior Scientist;QC Technician"}},
	{"Medical - Science", "clinic", [7]string{
		"Chief Medical Officer;Chief Nursing Officer;Chief Clinical Officer",
		"VP Clinical Services;VP Patient Care Services;Vice President of Nursing;VP Medical Affairs;VP Quality & Patient Safety",
		"Medical Director;Director of Nursing;Clinical Director;Director of Patient Care;Head of Clinical Services;Director of Pharmacy",
		"Nurse Manager;Clinical Manager;Practice Manager;Pharmacy Manager;Laboratory Manager;Clinical Nurse Lead;Rehabilitation Manager",
		"Attending Physician;Consultant Physician;Nurse Practitioner;Senior Pharmacist;Senior Physiotherapist;Clinical Nurse Specialist;Senior Radiographer",
		"Registered Nurse;Physician;General Practitioner;Pharmacist;Physical Therapist;Dentist;Physician Assistant;Radiologic Technologist;Occupational Therapist;Dietitian",
		"Medical Assistant;Nursing Assistant;Pharmacy Technician;Phlebotomist;Dental Assistant;Patient Care Technician;Lab Technician"}},
	{"Operations", "", [7]string{
		"COO;Chief Operating Officer;Chief Supply Chain Officer",
		"VP Operations;Vice President of Operations;VP Supply Chain;VP Manufacturing;VP Logistics;SVP Operations;VP Procurement",
		"Director of Operations;Operations Director;Head of Operations;Supply Chain Director;Plant Director;Director of Logistics;Head of Procurement;Director of Quality",
		"Operations Manager;Supply Chain Manager;Logistics Manager;Plant Manager;Production Manager;Procurement Manager;Warehouse Manager;Project Manager;Quality Manager;Production Supervisor",
		"Senior Operations Analyst;Senior Supply Chain Analyst;Senior Buyer;Senior Process Engineer;Lead Quality Engineer;Senior Project Engineer;Senior Planner",
		"Operations Analyst;Supply Chain Analyst;Buyer;Logistics Coordinator;Process Engineer;Quality Engineer;Operations Specialist;Production Planner;Field Engineer;Project Engineer",
		"Operations Coordinator;Operations Assistant;Warehouse Associate;Logistics Assistant;Junior Buyer;Production Technician;Operations Intern"}},
	{"Operations", "biz", [7]string{
		"COO;Chief Operating Officer",
		"VP Operations;Vice President of Operations;VP Business Operations;SVP Operations;VP Procurement",
		"Director of Operations;Operations Director;Head of Operations;Director of Business Operations;Head of Procurement;Director of Program Management",
		"Operations Manager;Business Operations Manager;Program Manager;Project Manager;Procurement Manager;Vendor Manager;Revenue Operations Manager",
		"Senior Operations Analyst;Senior Project Manager;Senior Program Manager;Senior Business Operations Analyst;Senior Procurement Specialist",
		"Operations Analyst;Operations Specialist;Project Coordinator;Procurement Specialist;Business Operations Associate;Revenue Operations Analyst",
		"Operations Coordinator;Operations Assistant;Junior Project Coordinator;Operations Intern;Junior Operations Analyst"}},
	{"Customer Service", "", [7]string{
		"Chief Customer Officer;Chief Experience Officer",
		"VP Customer Success;VP Customer Experience;Vice President of Customer Support;VP Client Services",
		"Director of Customer Success;Head of Customer Support;Customer Service Director;Director of Client Services;Head of Customer Experience",
		"Customer Service Manager;Customer Support Manager;Call Center Manager;Client Services Manager;Customer Support Team Lead;Customer Success Team Lead",
		"Senior Customer Success Manager;Senior Support Engineer;Senior Customer Service Representative;Senior Technical Support Specialist",
		"Customer Success Manager;Customer Service Representative;Technical Support Specialist;Support Engineer;Client Services Specialist;Customer Care Specialist",
		"Customer Service Associate;Customer Support Representative;Call Center Agent;Customer Care Agent;Junior Support Specialist"}},
	{"Research & Development", "", [7]string{
		"Chief Product Officer;Chief Innovation Officer;Chief Scientific Officer;Chief Research Officer",
		"VP Research & Development;VP Product;Vice President of Product;VP R&D;VP Innovation;VP Product Development",
		"Director of Research & Development;Head of R&D;Director of Product Management;Head of Product;Research Director;Director of Product Development",
		"R&D Manager;Product Manager;Research Manager;Product Development Manager;Innovation Manager;R&D Team Lead",
		"Senior Product Manager;Senior Research Engineer;Senior R&D Engineer;Principal Research Scientist;Senior Product Designer;Senior Design Engineer",
		"Research Engineer;R&D Engineer;Product Designer;UX Researcher;Design Engineer;Mechanical Engineer;Electrical Engineer;Product Owner",
		"Research Assistant;Associate Product Manager;R&D Technician;Junior Research Engineer;R&D Intern;Junior Product Designer"}},
	{"Administration", "", [7]string{
		"Chief Administrative Officer",
		"VP Administration;Vice President of Administration;VP Facilities;VP Business Administration",
		"Director of Administration;Administrative Director;Head of Facilities;Director of Business Administration;Head of Office Management",
		"Office Manager;Administrative Manager;Facilities Manager;Administration Manager;Executive Office Manager",
		"Senior Executive Assistant;Senior Administrative Assistant;Senior Office Administrator;Lead Executive Assistant",
		"Executive Assistant;Office Administrator;Administrative Assistant;Office Coordinator;Facilities Coordinator;Personal Assistant",
		"Receptionist;Office Assistant;Front Desk Coordinator;Data Entry Clerk;Administrative Intern;Office Junior"}},
	{"Public Relations", "", [7]string{
		"Chief Communications Officer",
		"VP Communications;Vice President of Public Relations;VP Corporate Communications;VP Public Affairs",
		"Director of Communications;Communications Director;Head of PR;Director of Public Relations;Head of Corporate Communications;PR Director",
		"PR Manager;Communications Manager;Public Relations Manager;Media Relations Manager;Corporate Communications Manager;Social Media Manager",
		"Senior Communications Specialist;Senior PR Specialist;Senior Copywriter;Senior Media Relations Specialist",
		"Communications Specialist;PR Specialist;Public Relations Specialist;Social Media Specialist;Copywriter;Press Officer;Content Writer",
		"PR Assistant;Communications Assistant;Junior PR Executive;Communications Intern;Communications Coordinator"}},
	{"Investor Relations", "", [7]string{
		"Chief Investment Officer",
		"VP Investor Relations;Vice President, Investor Relations;SVP Investor Relations",
		"Director of Investor Relations;Head of Investor Relations;Investor Relations Director",
		"Investor Relations Manager;IR Manager;Manager, Investor Relations",
		"Senior Investor Relations Analyst;Senior Investor Relations Associate",
		"Investor Relations Analyst;Investor Relations Associate;Investor Relations Specialist",
		"Investor Relations Assistant;Investor Relations Coordinator;Junior Investor Relations Analyst"}},
	{"Pro Services", "", [7]string{
		"Managing Partner;Partner;Chief Delivery Officer;Senior Partner",
		"VP Professional Services;VP Consulting;Vice President, Client Delivery;VP Implementation Services;VP Client Services",
		"Director of Professional Services;Head of Consulting;Delivery Director;Engagement Director;Director of Implementation;Practice Director",
		"Engagement Manager;Professional Services Manager;Delivery Manager;Implementation Manager;Consulting Manager;Project Manager",
		"Senior Consultant;Senior Implementation Consultant;Senior Solutions Consultant;Principal Consultant;Senior Business Analyst;Lead Consultant",
		"Consultant;Implementation Consultant;Business Analyst;Solutions Consultant;Technical Consultant;Project Consultant",
		"Junior Consultant;Associate Consultant;Consulting Analyst;Graduate Consultant;Implementation Specialist"}},
	{"Other", "", [7]string{
		"Chief Sustainability Officer;Chief Impact Officer;Chief Transformation Officer",
		"VP Sustainability;VP Special Projects;Vice President, ESG;VP Corporate Affairs",
		"Director of Sustainability;Head of ESG;Program Director;Director of Special Projects;Head of Community",
		"Program Manager;Sustainability Manager;Community Manager;Special Projects Manager;Training Manager",
		"Senior Program Coordinator;Senior Sustainability Analyst;Senior Analyst;Senior Specialist;Senior Trainer",
		"Program Coordinator;Sustainability Analyst;Project Coordinator;Analyst;Specialist;Trainer;Translator",
		"Assistant;Intern;Trainee;Coordinator;Junior Analyst;Apprentice"}},
	{"Other", "edu", [7]string{
		"Provost;Chief Academic Officer",
		"Vice President of Academic Affairs;VP Student Affairs;VP Enrollment",
		"Dean of Students;Director of Admissions;Head of Department;Director of Curriculum;Head of Faculty",
		"Program Manager;Admissions Manager;Curriculum Manager;Academic Program Lead",
		"Senior Lecturer;Associate Professor;Professor;Lead Teacher;Senior Instructional Designer",
		"Teacher;Lecturer;Instructor;Assistant Professor;Instructional Designer;Academic Advisor;Tutor",
		"Teaching Assistant;Graduate Assistant;Student Assistant;Junior Tutor;Trainee Teacher"}},
	{"Other", "hosp", [7]string{
		"",
		"VP Food & Beverage;VP Hotel Operations;VP Guest Experience",
		"Director of Food & Beverage;Director of Rooms;Hotel Director;Director of Guest Services;Head of Culinary",
		"Hotel Manager;Restaurant Manager;Executive Chef;Front Office Manager;Housekeeping Manager;Events Manager",
		"Sous Chef;Senior Event Planner;Head Bartender;Senior Travel Consultant;Lead Concierge",
		"Chef de Partie;Event Planner;Concierge;Travel Consultant;Guest Relations Officer;Sommelier",
		"Commis Chef;Front Desk Agent;Hotel Receptionist;Server;Guest Services Associate;Barista"}},
	{"Other", "build", [7]string{
		"",
		"VP Construction;VP Projects;VP Preconstruction",
		"Director of Construction;Projects Director;Head of Design;Director of Preconstruction",
		"Construction Manager;Site Manager;Project Manager;Site Supervisor;General Superintendent;Estimating Manager",
		"Senior Project Architect;Senior Estimator;Senior Site Engineer;Senior Quantity Surveyor;Lead Architect",
		"Architect;Estimator;Site Engineer;Quantity Surveyor;Civil Engineer;Surveyor;BIM Coordinator",
		"Junior Architect;Assistant Site Engineer;Junior Estimator;Construction Trainee;Architectural Assistant;Apprentice"}},
	{"Other", "retail", [7]string{
		"",
		"VP Retail;VP Merchandising;VP Store Operations",
		"Director of Merchandising;Retail Director;Head of Buying;Director of Store Operations;Head of Visual Merchandising",
		"Store Manager;Merchandising Manager;Category Manager;Assistant Store Manager;Buying Manager",
		"Senior Buyer;Senior Merchandiser;Senior Visual Merchandiser;Lead Stylist",
		"Merchandiser;Buyer;Visual Merchandiser;Stylist;Retail Planner;Designer",
		"Sales Assistant;Retail Associate;Cashier;Stock Associate;Junior Merchandiser;Store Assistant"}},
}

// titleVariants returns the variants a company's industry uses.
func titleVariants(label string, arch archetype) (tech, med, legal, other, ops string) {
	switch arch {
	case archSoftware, archServices, archFinance, archMedia, archPublic, archHealth:
		ops = "biz"
	}
	switch {
	case arch == archSoftware:
		tech = "sw"
	case label == "IT_SERVICES" || label == "TELECOMMUNICATIONS" || label == "SEMICONDUCTORS" ||
		label == "HARDWARE_ELECTRONICS" || label == "GAMING" || label == "INDUSTRIAL_AUTOMATION":
		tech = "sw"
	}
	switch label {
	case "HEALTHCARE":
		med = "clinic"
	case "PHARMACEUTICALS", "BIOTECHNOLOGY", "MEDICAL_DEVICES":
		med = "pharma"
	}
	if label == "LEGAL_SERVICES" {
		legal = "law"
	}
	switch label {
	case "EDUCATION":
		other = "edu"
	case "HOSPITALITY", "TRAVEL_TOURISM":
		other = "hosp"
	case "CONSTRUCTION", "ARCHITECTURE_DESIGN", "REAL_ESTATE":
		other = "build"
	case "RETAIL", "FASHION_APPAREL", "E_COMMERCE", "CONSUMER_GOODS":
		other = "retail"
	}
	return
}

// leadTitles are the top person's titles: the founder, owner or chief
// executive, by kind of organization and size.
var (
	leadTiny       = "Founder;Owner;Founder & CEO;Co-Founder & CEO;CEO;Founder and Managing Director;Owner & Managing Director"
	leadCompany    = "CEO;Chief Executive Officer;President & CEO;CEO;Managing Director;President"
	leadYoung      = "Founder & CEO;Co-Founder & CEO;CEO;Chief Executive Officer"
	leadMD         = "Managing Director;Managing Director;CEO;Chief Executive Officer;Founder & Managing Director"
	leadPartner    = "Managing Partner;Founding Partner;Managing Partner;Senior Partner"
	leadNonprofit  = "Executive Director;President;Founder & Executive Director;CEO;Executive Director"
	leadGovernment = "Director General;Chief Executive;Commissioner;Executive Director"
	leadEducation  = "President;Head of School;Principal;Founder & CEO;Chancellor"
	// mdCountries call the chief executive "Managing Director" more often.
	mdCountries = map[string]bool{"GB": true, "IE": true, "AU": true, "NZ": true, "ZA": true, "IN": true, "DE": true,
		"AT": true, "CH": true, "SG": true, "HK": true, "NL": true, "MY": true, "KE": true, "NG": true, "AE": true}
)

// Department weights: deptBase is the share of each department among
// non-executive staff of an average company, in record.Departments order;
// archetypes and industries multiply it.
var (
	deptBase = [15]float64{
		// Operations, Executive, Technology, Sales - Marketing, Finance, Legal, Human Resources,
		14, 1.5, 10, 20, 7, 2, 5,
		// Medical - Science, Customer Service, Research & Development, Administration,
		0.6, 7, 4, 5,
		// Public Relations, Investor Relations, Pro Services, Other
		2, 0.4, 4, 6,
	}
	// execBase is the department mix of the other executives.
	execBase = [15]float64{8, 30, 14, 14, 14, 4, 5, 1, 2, 3, 1, 1, 0.5, 2, 1.5}
	// deptMult are multipliers: archetype first, then industry label.
	deptMult = map[string]string{
		"arch0": "Technology:3.5 Research & Development:2 Customer Service:1.3 Operations:0.5 Pro Services:1.2",
		"arch1": "Pro Services:3 Operations:0.8",
		"arch2": "Operations:2.2 Research & Development:1.3 Technology:0.7",
		"arch3": "Finance:3 Legal:1.8 Investor Relations:4 Customer Service:1.3",
		"arch4": "Operations:1.8 Customer Service:1.8 Sales - Marketing:1.2",
		"arch5": "Sales - Marketing:1.5 Operations:1.5 Customer Service:1.5 Other:1.5",
		"arch6": "Medical - Science:30 Administration:1.5",
		"arch7": "Administration:2.5 Operations:1.3 Other:2 Public Relations:1.5",
		"arch8": "Public Relations:2 Sales - Marketing:1.3 Other:1.5",

		"LEGAL_SERVICES":          "Legal:25 Pro Services:0.3",
		"CONSULTING":              "Pro Services:2",
		"HUMAN_RESOURCES":         "Human Resources:6",
		"ADVERTISING_MARKETING":   "Sales - Marketing:2 Public Relations:2.5",
		"PHARMACEUTICALS":         "Research & Development:3 Medical - Science:0.6",
		"BIOTECHNOLOGY":           "Research & Development:3 Medical - Science:0.8",
		"MEDICAL_DEVICES":         "Research & Development:2.5 Medical - Science:0.35",
		"HEALTHCARE":              "Medical - Science:2.5",
		"INVESTMENT_MANAGEMENT":   "Investor Relations:3 Finance:1.5",
		"IT_SERVICES":             "Technology:3 Pro Services:1.5",
		"ARTIFICIAL_INTELLIGENCE": "Research & Development:1.8",
		"DATA_ANALYTICS":          "Research & Development:1.3 Pro Services:1.5",
		"FINTECH":                 "Finance:2 Legal:1.5",
		"EDUCATION":               "Other:3",
		"GOVERNMENT":              "Administration:1.5 Legal:2",
		"NONPROFIT":               "Public Relations:1.5 Other:1.5",
		"HOSPITALITY":             "Other:2.5",
		"TRAVEL_TOURISM":          "Other:2",
		"CONSTRUCTION":            "Other:2 Operations:1.3",
		"ARCHITECTURE_DESIGN":     "Other:3 Pro Services:0.5",
		"RETAIL":                  "Other:2",
		"SEMICONDUCTORS":          "Research & Development:2 Technology:2",
		"HARDWARE_ELECTRONICS":    "Research & Development:1.8 Technology:1.5",
		"TELECOMMUNICATIONS":      "Technology:2.5 Customer Service:1.5",
		"GAMING":                  "Technology:3 Research & Development:1.5",
		"CHEMICALS":               "Medical - Science:3 Research & Development:1.5",
		"ENVIRONMENTAL_SERVICES":  "Medical - Science:2 Other:1.5",
		"AGRICULTURE":             "Medical - Science:2",
		"FOOD_BEVERAGE":           "Medical - Science:1.5",
		"BANKING":                 "Customer Service:1.5 Investor Relations:1.5",
	}
)

// seniorityWeights are the seniority mixes (record.Seniorities order) of
// the people after the first, by size class: up to 10 employees, up to
// 50, up to 1000 and more.
var seniorityWeights = [4][7]int{
	{5, 1, 3, 12, 26, 35, 18},
	{3, 3, 8, 16, 24, 30, 16},
	{3, 5, 10, 18, 22, 27, 15},
	{2, 4, 9, 18, 23, 28, 16},
}

// Skills. Department lists first (variants as for titles), then each
// archetype's domain skills.
var deptSkills = map[string]string{
	"Operations": "Operations Management, Supply Chain Management, Logistics, Process Improvement, Lean Six Sigma, " +
		"Project Management, Procurement, Inventory Management, Vendor Management, Quality Management, ERP, " +
		"Production Planning, KPI Reporting, Warehouse Management, Budgeting, Continuous Improvement, Health & Safety",
	"Operations/biz": "Operations Management, Business Operations, Project Management, Program Management, " +
		"Process Improvement, Vendor Management, Procurement, KPI Reporting, Budgeting, Revenue Operations, " +
		"Cross-functional Team Leadership, Business Process Improvement, Jira, Asana, Data Analysis, Stakeholder Management",
	"Executive": "Strategic Planning, Leadership, Business Strategy, P&L Management, Corporate Development, Mergers & Acquisitions, " +
		"Fundraising, Board Relations, Change Management, Team Building, Negotiation, Business Development, Start-ups, " +
		"Operational Excellence, Executive Management, Stakeholder Management, Budgeting, Organizational Design",
	"Technology": "IT Infrastructure, Network Administration, ITIL, Microsoft 365, Active Directory, Cybersecurity, SQL, " +
		"Cloud Migration, Microsoft Azure, VMware, ERP Systems, SAP, Power BI, IT Service Management, Vendor Management, " +
		"Data Analysis, Disaster Recovery, Windows Server, Linux, Help Desk Support",
	"Technology/sw": "Go, Python, Java, TypeScript, JavaScript, React, Node.js, Kubernetes, Docker, AWS, Google Cloud Platform, " +
		"PostgreSQL, Microservices, REST APIs, GraphQL, CI/CD, Terraform, Distributed Systems, System Design, Machine Learning, " +
		"Data Engineering, Kafka, Rust, C++, Site Reliability Engineering, Agile Methodologies, Test Automation, Security Engineering",
	"Sales - Marketing": "B2B Sales, Account Management, Salesforce, HubSpot, Lead Generation, Negotiation, Digital Marketing, " +
		"SEO, Content Marketing, Social Media Marketing, Marketing Strategy, Brand Management, Demand Generation, Sales Prospecting, " +
		"Solution Selling, Pipeline Management, Email Marketing, Google Ads, Marketing Automation, Go-to-Market Strategy, " +
		"Customer Relationship Management, Cold Calling, Product Marketing, Event Marketing",
	"Finance": "Financial Analysis, Financial Reporting, Budgeting, Forecasting, Accounting, IFRS, US GAAP, Excel, " +
		"Financial Modeling, Audit, Tax, Cash Flow Management, Accounts Payable, Accounts Receivable, SAP FI, Treasury, " +
		"Cost Accounting, Payroll, Variance Analysis, Month-End Close, Risk Management",
	"Legal": "Contract Negotiation, Corporate Law, Commercial Contracts, Compliance, GDPR, Data Privacy, Litigation, " +
		"Legal Research, Intellectual Property, Employment Law, Regulatory Compliance, Mergers & Acquisitions, Legal Writing, " +
		"Due Diligence, Risk Assessment, Corporate Governance, Dispute Resolution",
	"Human Resources": "Recruiting, Talent Acquisition, Employee Relations, Performance Management, Onboarding, HRIS, " +
		"Compensation & Benefits, Workday, Employer Branding, Learning & Development, Labor Law, Succession Planning, " +
		"Sourcing, Interviewing, Organizational Development, Diversity & Inclusion, Payroll, Employee Engagement",
	"Medical - Science": "Laboratory Skills, Quality Assurance, Quality Control, Regulatory Affairs, Data Analysis, " +
		"Research Design, Scientific Writing, Analytical Chemistry, HPLC, Microbiology, GMP, ISO 17025, Validation, " +
		"Food Safety, HACCP, Environmental Science, Health & Safety, Statistics, Chemistry",
	"Medical - Science/pharma": "Clinical Research, Laboratory Skills, GCP, GMP, Regulatory Affairs, Data Analysis, Biostatistics, " +
		"Research Design, Scientific Writing, Quality Assurance, Clinical Trials, Analytical Chemistry, HPLC, Molecular Biology, " +
		"Cell Culture, Pharmacovigilance, ISO 13485, Validation, Life Sciences",
	"Medical - Science/clinic": "Patient Care, Clinical Assessment, Patient Safety, Electronic Medical Records, BLS, " +
		"Medication Administration, Healthcare Management, Infection Control, Acute Care, Critical Care, Diagnostics, " +
		"Care Coordination, Clinical Documentation, Epic EMR, Patient Education, Triage, HIPAA, Telemedicine",
	"Customer Service": "Customer Service, Customer Success, Zendesk, Customer Retention, Customer Experience, Troubleshooting, " +
		"Client Relations, Onboarding, Account Management, Conflict Resolution, Technical Support, CRM, Upselling, " +
		"Complaint Handling, Service Level Agreements, Intercom, Net Promoter Score",
	"Research & Development": "Product Development, Product Management, R&D, Research, Prototyping, Innovation Management, " +
		"Design Thinking, User Research, CAD, SolidWorks, Product Roadmapping, Requirements Analysis, Design of Experiments, " +
		"Technical Documentation, Patents, Lean Product Development, MATLAB, Simulation",
	"Administration": "Office Administration, Scheduling, Calendar Management, Microsoft Office, Travel Arrangements, " +
		"Facilities Management, Event Planning, Records Management, Data Entry, Bookkeeping, Procurement, Reception, " +
		"Executive Support, Document Management, Office Management",
	"Public Relations": "Public Relations, Media Relations, Corporate Communications, Crisis Communications, Press Releases, " +
		"Copywriting, Storytelling, Internal Communications, Social Media, Content Strategy, Speech Writing, Public Affairs, " +
		"Reputation Management, Event Management, Editing",
	"Investor Relations": "Investor Relations, Capital Markets, Financial Communications, Equity Research, Shareholder Engagement, " +
		"Earnings Calls, SEC Reporting, Valuation, Financial Modeling, ESG Reporting, Corporate Finance, Fundraising, Roadshows",
	"Pro Services": "Consulting, Project Management, Business Analysis, Stakeholder Management, Solution Architecture, " +
		"Implementation, Requirements Gathering, Process Improvement, Change Management, Client Management, PMP, Agile, " +
		"Scrum, Workshop Facilitation, Business Process Reengineering, Presentation Skills",
	"Other": "Project Coordination, Program Management, Sustainability, Training, Community Building, Research, Writing, " +
		"Microsoft Excel, Event Planning, Teamwork, Communication, Problem Solving, Time Management",
	"Other/edu": "Teaching, Curriculum Development, Classroom Management, Instructional Design, E-Learning, Higher Education, " +
		"Lesson Planning, Student Counseling, Educational Technology, Tutoring, Academic Advising, Assessment Design",
	"Other/hosp": "Hospitality Management, Guest Services, Food & Beverage, Culinary Skills, Event Planning, Revenue Management, " +
		"Front Office, Menu Development, Opera PMS, Catering, Travel Planning, Customer Experience",
	"Other/build": "Construction Management, AutoCAD, Revit, BIM, Estimating, Site Management, Quantity Surveying, " +
		"Health & Safety, Civil Engineering, Architectural Design, Project Planning, Building Codes",
	"Other/retail": "Retail Operations, Merchandising, Visual Merchandising, Inventory Management, Category Management, " +
		"Buying, Store Management, Loss Prevention, Point of Sale, Fashion, Trend Analysis, Customer Service",
}

var archSkills = [numArchetypes]string{
	archSoftware: "SaaS, Software as a Service, Product-Led Growth, Enterprise Software, Cloud Computing, APIs, Software Development, " +
		"Agile Methodologies, Startups, Product Management, User Experience, Data Analytics, Subscription Business",
	archServices: "Client Relations, Professional Services, Business Development, Proposal Writing, Account Management, " +
		"Consulting, Project Delivery, Client Onboarding, Service Delivery, Relationship Management, Billing",
	archIndustrial: "Manufacturing, Lean Manufacturing, Six Sigma, Supply Chain Management, Quality Management, ISO 9001, " +
		"Process Improvement, Health & Safety, Continuous Improvement, Engineering, Procurement, Logistics, Production Planning",
	archFinance: "Financial Services, Risk Management, Compliance, Banking, Wealth Management, Investments, Credit Risk, " +
		"Anti-Money Laundering, Portfolio Management, Financial Regulation, Insurance, Asset Management, KYC",
	archConsumer: "Customer Experience, Hospitality, Food Safety, Retail, Brand Management, Consumer Products, Merchandising, " +
		"Event Management, Guest Relations, Travel Management, E-commerce",
	archCommerce: "E-commerce, Retail, Merchandising, Shopify, Inventory Management, Consumer Insights, Omnichannel, " +
		"Category Management, Digital Marketing, Supply Chain, Fulfillment, Marketplace Management",
	archHealth: "Healthcare, Life Sciences, Clinical Research, Medical Devices, Pharmaceuticals, FDA Regulations, " +
		"Healthcare Management, Patient Experience, Hospitals, Quality Improvement, GxP",
	archPublic: "Public Policy, Nonprofit Management, Grant Writing, Public Administration, Stakeholder Engagement, " +
		"Program Evaluation, Fundraising, Community Outreach, Education, Government Relations, Volunteer Management",
	archMedia: "Media Production, Content Creation, Video Production, Journalism, Storytelling, Publishing, Adobe Creative Suite, " +
		"Game Design, Audience Development, Broadcasting, Copywriting, Digital Media",
}

// domainShare is, per department, the share of a person's skills that come
// from the industry (archetype skills and the niche's vocabulary) rather
// than the department's list.
var domainShare = [15]float64{0.3, 0.45, 0.15, 0.45, 0.15, 0.15, 0.1, 0.35, 0.35, 0.45, 0.1, 0.3, 0.25, 0.45, 0.3}

// deptTeam is how a summary names a department's team.
var deptTeam = [15]string{"operations", "leadership", "technology", "sales and marketing", "finance", "legal", "people",
	"clinical and scientific", "customer service", "R&D", "administration", "communications", "investor relations",
	"professional services", "program"}

// summary sentences; {T} title, {C} company, {K} what the company is,
// {D} niche, {U} customer type, {S} a skill, {Y} years of experience,
// {L} the department's team, {P} where the person is, {R} the company's
// country, {H} the company's city. Each template is one sentence.
var (
	summaryLead = []string{"{T} of {C}, {K} specializing in {D}.", "{T} at {C} with {Y} years of experience building businesses in {D}.",
		"{T} leading {C}, {K} serving {U}.", "{T} of {C}, {K} in {H}.", "{T} at {C} with {Y} years of leadership experience."}
	summaryOpeners = [7][]string{
		{"{T} of {C}, {K} specializing in {D}.", "{T} at {C} with {Y} years of leadership experience.",
			"{T} at {C}, leading the {L} organization.", "{T} at {C}, {K} serving {U}."},
		{"{T} at {C}, {K} focused on {D}.", "{T} at {C}, with {Y} years of experience in {S}.",
			"{T} at {C}, leading the {L} organization."},
		{"{T} at {C}, {K} focused on {D}.", "{T} at {C} with {Y} years of experience in {S} and {S}.",
			"Leading the {L} team at {C} as {T}."},
		{"{T} at {C}, leading the {L} team.", "{T} at {C}, bringing {Y} years of experience in {S}.",
			"{T} at {C}, {K} serving {U}."},
		{"{T} at {C} with {Y} years of experience in {S} and {S}.", "{T} at {C}, {K} focused on {D}.",
			"Experienced {T} at {C}."},
		{"{T} at {C}.", "{T} at {C}, {K} focused on {D}.", "{T} with {Y} years of experience in {S}."},
		{"{T} at {C}.", "{T} at {C}, {K} serving {U}.", "Early-career {T} at {C}."},
	}
	summaryDetails = []string{
		"Focused on {S}, {S} and {S}.", "Specializes in {S} and {S}.", "Works with {U} on {D}.",
		"Background in {S} and {S}.", "Skilled in {S}, {S} and {S}.", "Passionate about {S} and {D}.",
		"Experienced in {S} for {U}.", "Key strengths: {S}, {S}.",
	}
	summaryClosers = []string{"Based in {P}.", "Open to connecting with people working on {D}.", "Based in {P}; working with teams across {R}."}
)
